// The census an operator reads before retiring a patch (docs/deploying.md
// "Retiring a patch"): open executions, the patches they ran with, their build.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { formatCensus, takePatchCensus } from "../versioning/patch-census";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.stop());

describe("patch census", () => {
  it("lists an open run with the patches its start recorded, and forgets it once it ends", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({}, { followUpWindowSeconds: 600 }), task: "answer: waiting for a follow-up" });
    await waitForStatus(h.engine, runId, ["completed"]);
    const query = `WorkflowId = '${runId}' AND ExecutionStatus = 'Running'`;
    const open = await takePatchCensus(h.client, query);
    expect(open.executions).toHaveLength(1);
    expect(open.executions[0]?.patches).toEqual(expect.arrayContaining(["steps-in-history", "run-start-checked", "ledger-writer-regular-activity"]));
    // A run with a gate never asks the gate's patches; an untaped one never asks the tape's.
    expect(open.executions[0]?.patches).not.toContain("workspace-gate-at-start");
    expect(open.executions[0]?.patches).not.toContain("tape-replay");
    expect(open.perPatch.find((p) => p.id === "steps-in-history")).toMatchObject({ holding: 1, lacking: 0 });
    expect(formatCensus(open)).toMatch(/^1 open execution\n/);

    await h.client.workflow.getHandle(runId).cancel();
    await waitForStatus(h.engine, runId, ["cancelled"]);
    await expect.poll(async () => (await takePatchCensus(h.client, query)).executions.length, { timeout: 15_000 }).toBe(0);
  });
});
