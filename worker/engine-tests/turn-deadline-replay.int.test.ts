// A follow-up turn answered by a local activity (the demo model) while the run
// is queried replays cleanly. A query during the activity let its result land
// in a later workflow task; on replay the result arrived at once, so the turn's
// run-timeout timer was started and cancelled in one activation, which the SDK
// drops — and the replay failed: "UpsertWorkflowSearchAttributesMachine does
// not handle HistoryEvent(TimerStarted)" (found as control.int.test.ts failing
// about one run in three). Patch turn-deadline-kept leaves the timer to fire.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { summaryQuery } from "../../lib/contract/definitions";
import { replayRunTrees } from "../../scripts/test-support/replay";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.stop());

describe("a follow-up turn answered while the run is queried", () => {
  it("replays, run after run, and the closed run still answers queries", async () => {
    const runIds: string[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        const { runId } = await h.engine.startRun({ graph: singleAgentGraph({}, { followUpWindowSeconds: 8 }), task: "first question" });
        runIds.push(runId);
        await waitForStatus(h.engine, runId, ["completed"]);
        await h.engine.sendMessage(runId, "think 400\nanswer: second answer");
        // Queries while the model call (a local activity) runs.
        const handle = h.client.workflow.getHandle(runId);
        await eventually(
          async () => (await handle.query(summaryQuery)).output,
          (output) => output === "second answer",
          15_000,
          "the second answer",
        );
        await eventually(() => handle.describe(), (d) => d.status.name === "COMPLETED", 20_000, "the run to close");
        // A query on a closed run replays its whole history on a worker.
        expect((await handle.query(summaryQuery)).output).toBe("second answer");
      }),
    );
    expect(await replayRunTrees(h, runIds)).toBe(runIds.length);
  });
});
