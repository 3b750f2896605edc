// When the worker asks for an export: after the batch that ends a root run is
// written, never for sub-runs or runs still working, never when the write failed,
// and not at all when the export is off.
import { describe, expect, it } from "vitest";
import type { LedgerBatch } from "../../lib/contract/workflow";
import type { RunEvent, TraceSpan } from "../../lib/contract/types";
import type { RunExporter } from "../../lib/telemetry/exporter";
import { exportingLedgerWriter } from "./exporting-ledger";

function batch(parentRunId: string | null, events: Partial<RunEvent>[], spans: Partial<TraceSpan>[] = []): LedgerBatch {
  return {
    run: { runId: parentRunId ? "child-1" : "root-1", rootRunId: "root-1", parentRunId, agentName: "main", task: "t", context: {}, startedBy: null, graphName: null, agentVersionId: null },
    summary: {} as LedgerBatch["summary"],
    events: events as RunEvent[],
    spans: spans as TraceSpan[],
    messages: [],
    approvals: [],
  };
}

function recorder() {
  const asked: string[] = [];
  const exporter = { requestExport: (runId: string) => void asked.push(runId) } as unknown as RunExporter;
  return { asked, exporter };
}

describe("exportingLedgerWriter", () => {
  it("asks for the root's export once a batch ending the root run is written", async () => {
    const { asked, exporter } = recorder();
    const written: LedgerBatch[] = [];
    const writer = exportingLedgerWriter({ write: async (b: LedgerBatch) => void written.push(b) }, exporter);
    await writer.write(batch(null, [{ type: "iteration_started" }]));
    await writer.write(batch("root-1", [{ type: "run_completed" }]));
    await writer.write(batch(null, [{ type: "run_started" }], [{ kind: "run", endedAt: null }]));
    expect(asked, "nothing ended yet (a sub-run's answer is not the tree's)").toEqual([]);
    await writer.write(batch(null, [{ type: "run_completed" }]));
    await writer.write(batch(null, [{ type: "run_failed" }]));
    await writer.write(batch(null, [], [{ kind: "run", endedAt: "2026-11-26T10:00:00.000Z" }]));
    expect(asked).toEqual(["root-1", "root-1", "root-1"]);
    expect(written.length).toBe(6);
  });

  it("asks nothing when the write fails (the activity retries it)", async () => {
    const { asked, exporter } = recorder();
    const writer = exportingLedgerWriter({ write: (_b: LedgerBatch): Promise<void> => Promise.reject(new Error("SQLITE_BUSY")) }, exporter);
    await expect(writer.write(batch(null, [{ type: "run_completed" }]))).rejects.toThrow("SQLITE_BUSY");
    expect(asked).toEqual([]);
  });

  it("is the writer itself when the export is off", () => {
    const writer = { write: async () => undefined };
    expect(exportingLedgerWriter(writer, null)).toBe(writer);
  });
});
