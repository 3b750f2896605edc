// Plans cancelled while their nodes start, with the run queried all along (as
// the run page and the API do), replay on today's code (issue 22 §1). Before
// the run ledger's background writes were regular activities, about one run in
// twenty-four here failed its replay: a query arrived while a ledger write (a
// local activity) ran, its result was recorded in a later workflow task, and a
// replay resolved it before the plan's children had ended, so the writer took
// other batches and scheduled a different number of writes ("Missing associated
// machine for LocalActivity(7)"); the run then stood still.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Worker } from "@temporalio/worker";
import { eventually, sharedWorkflowBundle, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { createClaimCheckCodec } from "../../lib/temporal/claim-check-codec";
import tripPlanner from "../../lib/agents/demo/trip-planner.json";
import type { RunEvent } from "../../lib/contract/types";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.stop());

const RUNS = 16;
const graph = { ...tripPlanner, mode: "plan-and-execute" as const, limits: { ...tripPlanner.limits, followUpWindowSeconds: 0 } };

describe("plans cancelled mid-start, queried all along", () => {
  it("every run ends cancelled and every history replays", async () => {
    const runIds = await Promise.all(
      Array.from({ length: RUNS }, async (_, i) => {
        const { runId } = await h.engine.startRun({ graph, task: `Plan a slow trip ${i}\n@flight-researcher: think 30000\n@hotel-researcher: think 30000` });
        await eventually(() => h.engine.getEvents(runId), (events: RunEvent[]) => events.filter((e) => e.type === "plan_node_started").length >= 2, 60_000, `run ${i}'s nodes to start`);
        await h.engine.cancelRun(runId);
        // waitForStatus queries the run every 100 ms while it closes down.
        await waitForStatus(h.engine, runId, ["cancelled"], 60_000);
        return runId;
      }),
    );
    const dataConverter = { payloadCodecs: [createClaimCheckCodec({ db: h.db, thresholdBytes: h.config.temporal.payloadOffloadBytes })] };
    const failures: string[] = [];
    const histories = await Promise.all(runIds.map(async (runId) => ({ workflowId: runId, history: await h.client.workflow.getHandle(runId).fetchHistory() })));
    // One replay worker for all of them (a worker per history loads the bundle into a new context each time); it answers in order.
    let answered = 0;
    for await (const result of Worker.runReplayHistories({ workflowBundle: sharedWorkflowBundle(), dataConverter }, histories)) {
      answered++;
      if (result.error) failures.push(`${result.workflowId}: ${String(result.error).slice(0, 300)}`);
    }
    expect(answered, "one replay result per run").toBe(runIds.length);
    expect(failures).toEqual([]);
  }, 180_000);
});
