// Spend limits and runs already working (issue 39 §3, docs/spend-limits.md
// "Runs already working"), on real Temporal, SQLite and PostgreSQL: a run whose
// graph's limit is reached mid-run pauses into the inbox (onReached "ask") and
// goes on once the limit is raised and the request approved (asking again while
// it is not), or stops with spend_limit_reached (onReached "stop", a rejection).
// The check is made by the model-call activity, so no model is called past it.
// Taped runs (a fork, an experiment unit) check their live calls and never their
// recorded steps; an inline plan node (one activity of the plan's run) checks
// its calls too, and the plan's run stops or asks, then gives it another attempt.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Worker } from "@temporalio/worker";
import { testProviders } from "../../scripts/test-support/databases";
import { eventually, sharedWorkflowBundle, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { createClaimCheckCodec } from "../../lib/temporal/claim-check-codec";
import { saveAgentVersion } from "../../lib/agents/repository";
import { launchSavedRun } from "../../lib/runs/launch-saved";
import { launchRunSchema } from "../../lib/runs/schemas";
import { setSpendLimit } from "../../lib/spend-limits/server/store";
import { enrich } from "../../lib/inbox/server/inbox";
import { ValidationError } from "../../lib/errors";
import { SPEND_LIMIT_APPROVAL_TOOL } from "../../lib/contract/spend-limit-approval";
import type { ApprovalRequest, RunEvent } from "../../lib/contract/types";
import type { Role } from "../../lib/access/roles";
import { startTapedRunWith } from "../../lib/tapes/server/start-taped-run";
import type { TapeEntry } from "../../lib/tapes/schemas";
import tripPlanner from "../../lib/agents/demo/trip-planner.json";

const providers = await testProviders();
const TEST_TIMEOUT_MS = 150_000;

/**
 * Three model calls of 600 output tokens, each thinking 3.5 s (longer than the check's few seconds of cache, so
 * the second call reads the first one's spend): at a dollar a token the first call passes a $100 limit.
 */
const TASK = 'think 3500\ntokens 600\nrepeat 2 tool calculator {"expression":"1+1"}\nanswer: done';
const LIMIT_USD = 100;

/** Step `iteration` of TASK as a tape holds it: the model's calculator call and the tool's result (recorded: no model, no spend). */
const recordedCall = (iteration: number): TapeEntry[] => [
  { kind: "model", path: "", iteration, response: { text: null, toolCalls: [{ id: `c${iteration}`, name: "calculator", arguments: '{"expression":"1+1"}' }], usage: { inputTokens: 500, outputTokens: 600 }, model: "demo/test" } },
  { kind: "tool_at", path: "", iteration, callId: `c${iteration}`, tool: "calculator", outcome: "ok", result: "2" },
];
const recordedAnswer = (iteration: number): TapeEntry => ({ kind: "model", path: "", iteration, response: { text: "done", toolCalls: [], usage: { inputTokens: 500, outputTokens: 600 }, model: "demo/test" } });

/**
 * The trip plan (two researchers at once, then the itinerary; every node tool-less, so each runs inline as one
 * activity of the plan's run). demo/trip-planner is priced a dollar per output token and the limit is $1,000: the
 * planner and the researchers' first checks pass, the researchers spend 1,200 output tokens (the flight
 * researcher thinking longer than the check's cache), and the itinerary's check finds the limit reached.
 */
const PLAN_TASK = "Plan a 3-day trip to Paris\n@flight-researcher: think 3500\n@flight-researcher: tokens 600\n@hotel-researcher: tokens 600";
const PLAN_LIMIT_USD = 1000;

describe.concurrent.each(providers)("spend limits of working runs on $provider", ({ available, create }) => {
  let h: EngineHarness;
  let admin: { id: string; email: string; role: Role };
  let approver: { id: string; email: string; role: string };

  beforeAll(async () => {
    if (!available) return;
    h = await startEngineHarness({ database: await create() });
    const a = await h.db.user.findUniqueOrThrow({ where: { email: "admin@zap.local" } });
    admin = { id: a.id, email: a.email, role: a.role as Role };
    const b = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
    approver = { id: b.id, email: b.email, role: b.role };
    // A dollar per token on the demo model (demo models cost $0 unless an admin prices them).
    await h.db.modelPrice.create({ data: { model: "demo/test", effectiveFrom: new Date("2020-01-01T00:00:00Z"), input: 1_000_000, output: 1_000_000, createdById: admin.id } });
    await h.db.modelPrice.create({ data: { model: "demo/trip-planner", effectiveFrom: new Date("2020-01-01T00:00:00Z"), input: 0, output: 1_000_000, createdById: admin.id } });
  }, TEST_TIMEOUT_MS);
  afterAll(async () => {
    if (available) await h.stop();
  }, TEST_TIMEOUT_MS);

  /** A saved graph with a daily limit of $100 that does `onReached`, and a run of it started as the admin (the start passes: nothing is spent yet). */
  async function runUnderLimit(graph: string, onReached: "ask" | "stop") {
    await saveAgentVersion(h.db, graph, singleAgentGraph({ tools: ["calculator"] }), { createdById: admin.id });
    const limit = await setSpendLimit(h.db, { scope: "graph", scopeId: graph, period: "day", amountUsd: LIMIT_USD, onReached }, admin);
    expect(limit.onReached).toBe(onReached);
    const { runId } = await launchSavedRun({ db: h.db, engine: h.engine }, launchRunSchema.parse({ graph, task: TASK }), { id: admin.id, email: admin.email });
    return { runId, limitId: limit.id };
  }

  async function pendingOf(runId: string, other?: string): Promise<ApprovalRequest> {
    const pending = await eventually(
      () => h.engine.getPendingApprovals(runId),
      (list) => list.length === 1 && list[0]?.id !== other && !list[0]?.unconfirmed,
      45_000,
      "the run's spend limit request",
    );
    return pending[0] as ApprovalRequest;
  }

  const calls = (events: RunEvent[]) => events.filter((e) => e.type === "inference_completed").length;

  /** The run's history replays on today's workflow code (its follow-up window closed first). */
  async function replays(runId: string) {
    await h.client.workflow.getHandle(runId).terminate("the test is done").catch(() => undefined);
    const dataConverter = { payloadCodecs: [createClaimCheckCodec({ db: h.db, thresholdBytes: h.config.temporal.payloadOffloadBytes })] };
    const history = await h.client.workflow.getHandle(runId).fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: sharedWorkflowBundle(), dataConverter }, history, runId);
  }

  /** A run with a tape, started as an experiment's unit is (its experiment's start was the one checked). */
  function tapedRun(graph: string, entries: TapeEntry[]) {
    return startTapedRunWith({ db: h.db, engine: h.engine }, { graphName: graph, version: 1, task: TASK, context: {}, tape: { entries, settings: { live: "all", approvals: "inbox" }, purpose: "fork" }, startedBy: { ...admin, name: "admin" } });
  }

  /** The trip plan saved under `graph` with a daily limit of $1,000 that does `onReached`, and a run of it started as the admin. */
  async function planUnderLimit(graph: string, onReached: "ask" | "stop") {
    await saveAgentVersion(h.db, graph, { ...tripPlanner, mode: "plan-and-execute" as const, limits: { ...tripPlanner.limits, followUpWindowSeconds: 0 } }, { createdById: admin.id });
    const limit = await setSpendLimit(h.db, { scope: "graph", scopeId: graph, period: "day", amountUsd: PLAN_LIMIT_USD, onReached }, admin);
    const { runId } = await launchSavedRun({ db: h.db, engine: h.engine }, launchRunSchema.parse({ graph, task: PLAN_TASK }), { id: admin.id, email: admin.email });
    return { runId, limitId: limit.id };
  }

  type NodeStarted = Extract<RunEvent, { type: "plan_node_started" }>;
  const itineraryAttempts = (events: RunEvent[]) => events.filter((e): e is NodeStarted => e.type === "plan_node_started" && e.nodeId === "itinerary-planner");

  it.skipIf(!available)(
    "ask: the run pauses into the inbox once its graph's limit is reached, asks again while it is, and goes on once the limit is raised and the request approved; its history replays",
    async () => {
      const { runId, limitId } = await runUnderLimit("spend-ask", "ask");
      await waitForStatus(h.engine, runId, ["awaiting_approval"], 45_000);
      const approval = await pendingOf(runId);
      expect(approval).toMatchObject({ kind: "spend_limit", toolName: SPEND_LIMIT_APPROVAL_TOOL, arguments: { limitId }, spendLimit: { limitId, scope: "graph", scopeLabel: "spend-ask", period: "day", amountUsd: LIMIT_USD, onReached: "ask" } });
      expect(approval.spendLimit?.message).toMatch(/spent of the daily spend limit of graph "spend-ask" \(\$100\.00\)/);
      expect(calls(await h.engine.getEvents(runId)), "one model call was made; the second was not").toBe(1);
      const [item] = await enrich(h.db, [approval]);
      expect(item).toMatchObject({ precedingMessage: null, toolSchema: { properties: {} } });

      // Nothing may be edited: 422, the run keeps waiting.
      const edit = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, editedArguments: { limitId: "x" }, decidedBy: approver }).catch((e: unknown) => e);
      expect(edit).toBeInstanceOf(ValidationError);
      expect((edit as ValidationError).userMessage).toMatch(/cannot be edited/);

      // Approved while the limit is still reached: the call is checked again and the run asks again (no model call between).
      await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: approver });
      const again = await pendingOf(runId, approval.id);
      expect(again.kind).toBe("spend_limit");
      expect(calls(await h.engine.getEvents(runId))).toBe(1);

      // An admin raises the limit; approved, the run goes on to its answer.
      await setSpendLimit(h.db, { scope: "graph", scopeId: "spend-ask", period: "day", amountUsd: 1_000_000 }, admin);
      await h.engine.decideApproval(runId, { approvalId: again.id, approved: true, reason: "limit raised", decidedBy: approver });
      const done = await waitForStatus(h.engine, runId, ["completed"], 60_000);
      expect(done.output).toBe("done");
      expect(calls(await h.engine.getEvents(runId))).toBe(3);

      const record = await h.db.approvalRecord.findUniqueOrThrow({ where: { id: again.id } });
      expect(record).toMatchObject({ runId, status: "approved", toolName: SPEND_LIMIT_APPROVAL_TOOL, decidedByEmail: approver.email, reason: "limit raised" });
      expect(await h.db.auditEvent.findUniqueOrThrow({ where: { id: `approval:${again.id}` } })).toMatchObject({ action: "approval.approved", actorId: approver.id });

      await replays(runId);
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(!available)("stop: a running run whose graph's limit is reached ends failed with spend_limit_reached, naming the limit, and never asks", async () => {
    const { runId } = await runUnderLimit("spend-stop", "stop");
    const failed = await waitForStatus(h.engine, runId, ["failed"], 45_000);
    expect(failed.error?.reason).toBe("spend_limit_reached");
    expect(failed.error?.message).toMatch(/spent of the daily spend limit of graph "spend-stop" \(\$100\.00\); the limit stops running runs/);
    expect(calls(await h.engine.getEvents(runId))).toBe(1);
    expect(await h.db.approvalRecord.count({ where: { runId } })).toBe(0);
  }, TEST_TIMEOUT_MS);

  it.skipIf(!available)("ask, rejected: the run stops with spend_limit_reached, naming who stopped it and why; audited", async () => {
    const { runId } = await runUnderLimit("spend-reject", "ask");
    const approval = await pendingOf(runId);
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: false, reason: "over budget this month", decidedBy: approver });
    const failed = await waitForStatus(h.engine, runId, ["failed"], 45_000);
    expect(failed.error?.reason).toBe("spend_limit_reached");
    expect(failed.error?.message).toContain(`${approver.email} stopped the run: over budget this month`);
    expect(await h.db.auditEvent.findUniqueOrThrow({ where: { id: `approval:${approval.id}` } })).toMatchObject({ action: "approval.rejected" });
  }, TEST_TIMEOUT_MS);

  it.skipIf(!available)(
    "a taped run (a fork, an experiment unit): its live calls are checked and it stops at the limit (stop); its recorded steps are not, so a run the tape answers whole finishes past the limit; its history replays",
    async () => {
      await saveAgentVersion(h.db, "spend-tape", singleAgentGraph({ tools: ["calculator"] }), { createdById: admin.id });
      await setSpendLimit(h.db, { scope: "graph", scopeId: "spend-tape", period: "day", amountUsd: LIMIT_USD, onReached: "stop" }, admin);
      // Step 1 from the tape, step 2 live (it passes the limit), step 3 live: checked, stopped.
      const { runId } = await tapedRun("spend-tape", recordedCall(1));
      const failed = await waitForStatus(h.engine, runId, ["failed"], 45_000);
      expect(failed.error?.reason).toBe("spend_limit_reached");
      expect(failed.error?.message).toMatch(/spent of the daily spend limit of graph "spend-tape" \(\$100\.00\); the limit stops running runs/);
      const inferences = (await h.engine.getEvents(runId)).filter((e): e is Extract<RunEvent, { type: "inference_completed" }> => e.type === "inference_completed");
      expect(inferences.map((e) => e.replayed === true), "the recorded step, then one live call; the third was not made").toEqual([true, false]);

      // The limit is reached now (the stop read it fresh): a run whose every step is on its tape calls no model and is not stopped.
      const whole = await tapedRun("spend-tape", [...recordedCall(1), ...recordedCall(2), recordedAnswer(3)]);
      const done = await waitForStatus(h.engine, whole.runId, ["completed", "failed"], 45_000);
      expect(done.error, "a recorded step costs nothing and is not checked").toBeNull();
      expect(done.output).toBe("done");
      await replays(runId);
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(!available)(
    "an inline plan node (ask): its run ends failed with spend_limit_reached before calling its model, the plan's run asks in the inbox, and once the limit is raised and approved the node runs again and the plan completes; its history replays",
    async () => {
      const { runId, limitId } = await planUnderLimit("spend-plan-ask", "ask");
      const approval = await pendingOf(runId);
      expect(approval).toMatchObject({ kind: "spend_limit", runId, spendLimit: { limitId, scope: "graph", scopeLabel: "spend-plan-ask", onReached: "ask" } });
      const [first] = itineraryAttempts(await h.engine.getEvents(runId));
      expect(first?.attempt).toBe(1);
      const node = await h.engine.getRun(first?.runId ?? "");
      expect(node, "the node's run, written by the plan's activity").toMatchObject({ status: "failed", parentRunId: runId, error: { reason: "spend_limit_reached" } });
      expect(calls(await h.engine.getEvents(first?.runId ?? "")), "the node called no model").toBe(0);
      await expect(h.client.workflow.getHandle(first?.runId ?? "").describe(), "inline: no workflow of its own").rejects.toThrow(/not found/i);

      await setSpendLimit(h.db, { scope: "graph", scopeId: "spend-plan-ask", period: "day", amountUsd: 1_000_000 }, admin);
      await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, reason: "limit raised", decidedBy: approver });
      const done = await waitForStatus(h.engine, runId, ["completed", "failed"], 60_000);
      expect(done.error).toBeNull();
      const events = await h.engine.getEvents(runId);
      expect(itineraryAttempts(events).map((e) => e.attempt)).toEqual([1, 2]);
      expect(events.find((e) => e.type === "plan_finished")).toMatchObject({ outcome: "completed", completed: 3, failed: 0 });
      await replays(runId);
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(!available)("an inline plan node (stop): the plan's run ends failed with spend_limit_reached, naming the limit, and never asks", async () => {
    const { runId } = await planUnderLimit("spend-plan-stop", "stop");
    const failed = await waitForStatus(h.engine, runId, ["completed", "failed"], 60_000);
    expect(failed.error?.reason).toBe("spend_limit_reached");
    expect(failed.error?.message).toMatch(/spent of the daily spend limit of graph "spend-plan-stop" \(\$1,000\.00\); the limit stops running runs/);
    const [first] = itineraryAttempts(await h.engine.getEvents(runId));
    expect(await h.engine.getRun(first?.runId ?? "")).toMatchObject({ status: "failed", error: { reason: "spend_limit_reached" } });
    expect(await h.db.approvalRecord.count({ where: { runId } })).toBe(0);
  }, TEST_TIMEOUT_MS);
});
