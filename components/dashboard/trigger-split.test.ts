// The split by trigger counts the runs the run tiles count: the same start range (the grid's, as their drill-down
// links) and the run filters; never model or tool, which do not narrow runs.
import { describe, expect, it } from "vitest";
import { triggerSplitSearch } from "./trigger-split";
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
