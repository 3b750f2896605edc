// Plans cancelled while their nodes start, with the run read all along (as
// the run page and the API do), replay on today's code (issue 22 §1). Before
// the run ledger's background writes were regular activities, about one run in
// twenty-four here failed its replay: a query arrived while a ledger write (a
// local activity) ran, its result was recorded in a later workflow task, and a
// replay resolved it before the plan's children had ended, so the writer took
// other batches and scheduled a different number of writes ("Missing associated
// machine for LocalActivity(7)"); the run then stood still.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Worker } from "@temporalio/worker";
import { temporal } from "@temporalio/proto";
import { eventually, sharedWorkflowBundle, startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { createClaimCheckCodec } from "../../lib/temporal/claim-check-codec";
import tripPlanner from "../../lib/agents/demo/trip-planner.json";
import type { RunEvent } from "../../lib/contract/types";
import { scaledWait } from "../../scripts/test-support/wait-scale";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.stop());

const RUNS = 16;
const graph = { ...tripPlanner, mode: "plan-and-execute" as const, limits: { ...tripPlanner.limits, followUpWindowSeconds: 0 } };
/**
 * Each run's reads are ledger reads (since reads moved to the run ledger, no workflow query), on the event loop the
 * in-process worker's workflow tasks need too. Sixteen runs read every 100 ms kept that loop busy 99 % of the time
 * (about 30 % of the file's CPU, two thirds of its SQL statements); once a second, 91 %.
 */
const READ_EVERY_MS = 1000;

const { EventType } = temporal.api.enums.v1;

/** The run's workflow tasks that timed out or failed, from its history: why a run stands still on a starved worker. */
async function workflowTaskTrouble(runId: string): Promise<string> {
  const history = await h.client.workflow.getHandle(runId).fetchHistory().catch(() => null);
  if (!history) return "history unavailable";
  const events = history.events ?? [];
  const timedOut = events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT).length;
  const failed = events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED).length;
  const attempts = events.map((e) => e.workflowTaskScheduledEventAttributes?.attempt ?? 0);
  return `workflow tasks timed out ${timedOut}, failed ${failed}, highest recorded attempt ${Math.max(0, ...attempts)}`;
}

/** `eventually`, whose failure also names the run's workflow-task timeouts. */
async function waitOnRun<T>(runId: string, read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  try {
    return await eventually(read, accept, timeoutMs, what, READ_EVERY_MS);
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)} (${await workflowTaskTrouble(runId)})`);
  }
}

describe("plans cancelled mid-start, queried all along", () => {
  it("every run ends cancelled and every history replays", async () => {
    const runIds = await Promise.all(
      Array.from({ length: RUNS }, async (_, i) => {
        const { runId } = await h.engine.startRun({ graph, task: `Plan a slow trip ${i}\n@flight-researcher: think 30000\n@hotel-researcher: think 30000` });
        // Hang detectors, not speed bounds. On a CPU-starved machine the in-process worker's workflow tasks take 5-48 s,
        // past the 10 s workflow task timeout (AGENT_WORKFLOW_TASK_TIMEOUT), and each is retried as a full replay that
        // times out again (attempts up to 7): a run stands still for tens of seconds — the sixteenth plan's planner call
        // that had not answered after 60 s in a fresh-clone run. Beside two busy loops (2026-11-30, load 13-18): with
        // reads every 100 ms a run had no event after 150 s; read once a second, twice 62-67 s with no timed-out task,
        // and once run 0's nodes had not started after 90 s (attempt 5). A failure names the run's workflow-task timeouts.
        await waitOnRun(runId, () => h.engine.getEvents(runId), (events: RunEvent[]) => events.filter((e) => e.type === "plan_node_started").length >= 2, 150_000, `run ${i}'s nodes to start`);
        await h.engine.cancelRun(runId);
        // The run is read while it closes down (its nodes hear the cancel with a heartbeat's reply).
        await waitOnRun(runId, () => h.engine.getRun(runId), (run) => run.status === "cancelled", 90_000, `run ${runId} to end cancelled`);
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
  }, scaledWait(360_000));
});
