// A taped run (an experiment's item run, a fork) cancelled right after it
// starts, or while a replayed model call, the tape gate of an approval-gated
// call or a live tool is in flight, ends cancelled within seconds, fails no
// workflow task on the way (a failed task is retried and the run stands still:
// reported by the experiments' bench under load), and its history replays on
// today's code (a worker that lost its cache rebuilds it that way).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { temporal } from "@temporalio/proto";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { replayHistories, type RecordedExecution } from "../../scripts/test-support/replay";
import { saveAgentVersion } from "../../lib/agents/repository";
import type { RunEvent } from "../../lib/contract/types";
import type { SessionUser } from "../../lib/auth/server/session";
import { startTapedRunWith } from "../../lib/tapes/server/start-taped-run";
import type { TapeEntry, TapeSettings } from "../../lib/tapes/schemas";
import { summaryQuery } from "../../lib/contract/definitions";
import { scaledWait } from "../../scripts/test-support/wait-scale";

let h: EngineHarness;
let builder: SessionUser;

beforeAll(async () => {
  h = await startEngineHarness({ policy: { exemptTools: ["calculator", "current_time", "lookup_order", "kb__search_kb"] } });
  const user = await h.db.user.findUniqueOrThrow({ where: { email: "builder@zap.local" } });
  builder = { id: user.id, email: user.email, name: user.name ?? "builder", role: "builder" };
}, scaledWait(120_000));
afterAll(async () => h?.stop());

const EventType = temporal.api.enums.v1.EventType;
/** A cancelled run must close within this (its close-down is a few activities). */
const PROMPT_MS = 30_000;

async function startTaped(agent: Record<string, unknown>, task: string, entries: TapeEntry[], settings: TapeSettings): Promise<string> {
  const graphName = `tape-cancel-${randomUUID().slice(0, 8)}`;
  await saveAgentVersion(h.db, graphName, singleAgentGraph(agent, { followUpWindowSeconds: 0 }), { createdById: builder.id });
  const { runId } = await startTapedRunWith(
    { db: h.db, engine: h.engine },
    { graphName, version: 1, task, context: {}, tape: { entries, settings, purpose: "experiment" }, startedBy: builder, origin: { experimentId: "exp-cancel" } },
  );
  return runId;
}

/**
 * Cancels the run, waits for its workflow to close as cancelled, and checks the history: no failed workflow task. Answers
 * the history, which the test replays with the others it made (replayHistories: one replay worker for them all).
 */
async function cancelAndCheck(runId: string): Promise<RecordedExecution> {
  await h.engine.cancelRun(runId);
  const handle = h.client.workflow.getHandle(runId);
  const closed = await Promise.race([
    handle.result().then(
      () => "completed",
      (error: unknown) => (error instanceof Error ? error.name : String(error)),
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve("still open"), PROMPT_MS)),
  ]);
  const history = await handle.fetchHistory();
  const events = history.events ?? [];
  const failedTasks = events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED).map((e) => e.workflowTaskFailedEventAttributes?.failure?.message ?? "");
  expect(failedTasks, `${runId}: failed workflow tasks`).toEqual([]);
  expect(closed, `${runId} closes promptly`).toBe("WorkflowFailedError");
  expect(events.at(-1)?.eventType, `${runId} ends cancelled`).toBe(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED);
  expect((await waitForStatus(h.engine, runId, ["cancelled"], PROMPT_MS)).status).toBe("cancelled");
  return { workflowId: runId, history };
}

const eventsOf = (runId: string) => h.engine.getEvents(runId);
const recordedAnswer = (i: number): TapeEntry => ({
  kind: "model",
  path: "",
  iteration: i,
  response: { text: null, toolCalls: [{ id: `c${i}`, name: "calculator", arguments: `{"expression":"${i}+1"}` }], usage: { inputTokens: 10, outputTokens: 5 }, model: "demo/test" },
});
/**
 * Waits until the tool calls are in flight: the run's summary (the ledger) says so, or the
 * ledger already has a tool call started (a taped run's tools are regular activities, done in milliseconds, so
 * a poll can miss the status). A model call thinks 12 s: a cancel that misses the short calls still lands in
 * the next model call, right after them, not after the answer.
 */
const untilToolsRun = (runId: string) =>
  eventually(
    async () => ({ status: (await h.engine.getRun(runId)).status, started: (await eventsOf(runId)).some((e) => e.type === "tool_call_started") }),
    (s) => s.status === "awaiting_tool" || (s.started && s.status !== "completed"),
    60_000,
    "the tool calls to run",
  );
const slowTask = (lines: string[]) => ["think 30000", ...lines, "answer: done"].join("\n");

// Side by side (describe.concurrent): each test cancels runs of its own at the moment it waits for; the 24 under load run alone after.
describe.concurrent("taped runs cancelled in flight", () => {
  it("cancelled right after the start (several at once, as an experiment's cancel does)", async () => {
    const closed = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const runId = await startTaped(
          { tools: ["lookup_order", "ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver" }] },
          `tool lookup_order {"order_id":"A-${i}"}\ntool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":1}\nanswer: done`,
          [{ kind: "tool_call", tool: "lookup_order", arguments: { order_id: `A-${i}` }, outcome: "ok", result: '{"recorded":true}' }],
          { live: { tools: [] }, approvals: "approve" },
        );
        return cancelAndCheck(runId);
      }),
    );
    expect(new Set(closed.map((e) => e.workflowId)).size).toBe(8);
    await replayHistories(h, closed);
  }, scaledWait(180_000));

  it("cancelled while replayed model calls run", async () => {
    const entries = Array.from({ length: 40 }, (_, i) => recordedAnswer(i + 1));
    const runId = await startTaped({ tools: ["calculator"], maxIterations: 100 }, slowTask([]), entries, { live: "all", approvals: "reject" });
    await eventually(eventsOf.bind(null, runId), (events: RunEvent[]) => events.some((e) => e.type === "inference_completed" && e.replayed === true), 60_000, "a replayed model call");
    await replayHistories(h, [await cancelAndCheck(runId)]);
  }, scaledWait(120_000));

  it("cancelled while an approval-gated call asks the tape", async () => {
    const transfer = 'tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":2}';
    const runId = await startTaped(
      { tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver" }] },
      [`${transfer} && ${transfer} && ${transfer}`, "think 12000", "answer: done"].join("\n"),
      [],
      { live: { tools: [] }, approvals: "approve" },
    );
    await untilToolsRun(runId);
    await replayHistories(h, [await cancelAndCheck(runId)]);
  }, scaledWait(120_000));

  it("cancelled while a live tool runs", async () => {
    const transfer = 'tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":1}';
    const runId = await startTaped({ tools: ["ledger_transfer"] }, [`${transfer} && ${transfer}`, "think 12000", "answer: done"].join("\n"), [], { live: "all", approvals: "approve" });
    await untilToolsRun(runId);
    await replayHistories(h, [await cancelAndCheck(runId)]);
  }, scaledWait(120_000));
});

describe("taped runs cancelled under load", () => {
  it("24 runs at once, each cancelled at its own moment while queried, all close cancelled and replay", async () => {
    const transfer = 'tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":1}';
    const closed = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const runId = await startTaped(
          { tools: ["lookup_order", "calculator", "ledger_transfer"], maxIterations: 100, approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver" }] },
          [`tool lookup_order {"order_id":"L-${i}"} && ${transfer}`, 'tool calculator {"expression":"2*3"}', "think 20000", "answer: done"].join("\n"),
          [
            ...Array.from({ length: 3 }, (_, k) => recordedAnswer(k + 1)),
            { kind: "tool_call", tool: "lookup_order", arguments: { order_id: `L-${i}` }, outcome: "ok", result: '{"recorded":true}' },
          ],
          { live: { tools: ["calculator"] }, approvals: i % 2 ? "approve" : "reject" },
        );
        // Staggered: at once, during the start check, the replayed model calls, the gate, the tools. The first
        // live model call thinks 20 s, so no run can answer before its cancel, however the load orders them.
        const delay = (i % 8) * 120;
        const queries = (async () => {
          for (let q = 0; q < 10; q++) {
            // The workflow's own query, as the inbox's reads are (a query closes a workflow task early).
            await h.client.workflow.getHandle(runId).query(summaryQuery).catch(() => undefined);
            await new Promise((r) => setTimeout(r, 50));
          }
        })();
        await new Promise((r) => setTimeout(r, delay));
        const execution = await cancelAndCheck(runId);
        await queries;
        return execution;
      }),
    );
    expect(new Set(closed.map((e) => e.workflowId)).size).toBe(24);
    await replayHistories(h, closed);
  }, scaledWait(300_000));
});
