// The split by trigger counts the runs the run tiles count: the same start range (the grid's, as their drill-down
// links) and the run filters; never model or tool, which do not narrow runs.
import { describe, expect, it } from "vitest";
import { triggerRunsHref, triggerSplitSearch } from "./trigger-split";
import { runFiltersSchema } from "@/lib/runs/schemas";
import { runTriggerQuerySchema, RUN_TRIGGERS } from "@/lib/runs/triggers";
import { gridEndMs } from "./chart-data";

describe("triggerSplitSearch", () => {
  it("asks for the grid's whole start range and the graph, version and starter filters only", () => {
    const range = { from: "2026-03-01T10:00:00.000Z", to: "2026-03-01T12:31:10.000Z", stepSeconds: 3600, resolution: "minute" as const };
    const params = new URLSearchParams(triggerSplitSearch(range, { graph: "triage", version: 2, startedBy: "ann@zap.local", model: "demo", tool: "lookup" }));
    expect(params.get("from")).toBe("2026-03-01T10:00:00.000Z");
    expect(params.get("to"), "to the end of the slot holding now, included").toBe(new Date(gridEndMs(range) - 1).toISOString());
    expect(params.get("to")).toBe("2026-03-01T12:59:59.999Z");
    expect([...params.keys()].sort()).toEqual(["from", "graph", "startedBy", "to", "version"]);
  });
});

describe("triggerRunsHref", () => {
  it("opens the runs list with the split's own range and filters and the bar's trigger, experiment runs shown", () => {
    const range = { from: "2026-03-01T10:00:00.000Z", to: "2026-03-01T12:31:10.000Z", stepSeconds: 3600, resolution: "minute" as const };
    const search = triggerSplitSearch(range, { graph: "triage", version: 2, startedBy: "ann@zap.local" });
    const split = runTriggerQuerySchema.parse(Object.fromEntries(new URLSearchParams(search)));
    for (const trigger of RUN_TRIGGERS) {
      const href = triggerRunsHref(search, trigger);
      expect(href.startsWith("/runs?"), href).toBe(true);
      const listed = runFiltersSchema.parse(Object.fromEntries(new URL(href, "http://x").searchParams));
      expect(listed).toMatchObject({ trigger, experiments: "1", from: split.from, to: split.to, graph: split.graph, version: split.version, startedBy: split.startedBy });
    }
  });
});
