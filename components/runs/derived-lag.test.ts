// The notes a page shows while derived rows trail the ledger, and when the
// dashboard and the runs list read again to catch up.
import { describe, expect, it } from "vitest";
import type { MetricsDashboard } from "@/lib/metrics/schemas";
import type { RunListPage } from "@/lib/runs/schemas";
import { CATCH_UP_REFETCH_MS, derivedLagText, indexLagText } from "./derived-lag";
import { runsListRefetchMs } from "./use-live-runs";
import { metricsRefetchMs } from "../dashboard/derived-lag-note";

describe("derived rows' lag notes", () => {
  it("names the writes and the lag in seconds", () => {
    expect(derivedLagText({ queued: 3, lagMs: 412 })).toBe("Counting the last 3 ledger writes (0.4 s behind)…");
    expect(indexLagText({ queued: 3, lagMs: 412 })).toBe("Indexing the last 3 ledger writes (0.4 s behind)…");
    expect(indexLagText({ queued: 1, lagMs: 40 }), "one write reads as one").toBe("Indexing the last ledger write (under 0.1 s behind)…");
    expect(derivedLagText({ queued: 1_250, lagMs: 95_000 }), "a long lag in minutes").toBe("Counting the last 1,250 ledger writes (1 min 35 s behind)…");
  });
});

describe("reading again to catch up", () => {
  const dashboard = (queued: number) => ({ derived: { queued, lagMs: queued ? 300 : 0 } }) as MetricsDashboard;
  const page = (indexBehind?: RunListPage["indexBehind"], status: RunListPage["rows"][number]["status"] = "completed") =>
    ({ rows: [{ status, subRuns: [] }], total: 1, page: 1, pageSize: 25, temporalNote: null, ...(indexBehind ? { indexBehind } : {}) }) as unknown as RunListPage;

  it("reads the dashboard every second while writes are not counted, else at its steady pace", () => {
    expect(metricsRefetchMs(dashboard(2), 30_000)).toBe(CATCH_UP_REFETCH_MS);
    expect(metricsRefetchMs(dashboard(0), 30_000)).toBe(30_000);
    expect(metricsRefetchMs(undefined, 30_000), "no answer yet").toBe(30_000);
  });

  it("reads the runs list every second while its index is behind, even while the live feed is up", () => {
    expect(runsListRefetchMs("stream", page({ queued: 1, lagMs: 50 }))).toBe(CATCH_UP_REFETCH_MS);
    expect(runsListRefetchMs("polling", page({ queued: 1, lagMs: 50 }))).toBe(CATCH_UP_REFETCH_MS);
    expect(runsListRefetchMs("stream", page()), "caught up: the feed keeps it current").toBe(false);
    expect(runsListRefetchMs("polling", page(undefined, "thinking")), "feed down, a run working: the old poll").toBe(2_000);
    expect(runsListRefetchMs("polling", page()), "feed down, all settled").toBe(15_000);
  });
});
