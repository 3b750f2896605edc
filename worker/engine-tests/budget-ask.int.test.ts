// Run limits onBudget "ask": a run at its token budget waits in the approval
// inbox for an approver to grant more tokens (the amount editable) or stop it;
// decided, signed and audited like any approval. Expiry or rejection fails the
// run with budget_exceeded.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Worker } from "@temporalio/worker";
import { eventually, sharedWorkflowBundle, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { waitScale } from "../../scripts/test-support/wait-scale";
import { createClaimCheckCodec } from "../../lib/temporal/claim-check-codec";
import { ValidationError } from "../../lib/errors";
import { decideMany } from "../../lib/inbox/server/decide";
import { enrich } from "../../lib/inbox/server/inbox";
import { BUDGET_APPROVAL_TOOL } from "../../lib/contract/budget-approval";
import type { SessionUser } from "../../lib/auth/server/session";
import { isRole } from "../../lib/access/roles";
import type { ApprovalRequest, RunEvent } from "../../lib/contract/types";

let h: EngineHarness;
let approver: { id: string; email: string; role: string };
let approverSession: SessionUser;

beforeAll(async () => {
  h = await startEngineHarness();
  const user = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
  approver = { id: user.id, email: user.email, role: user.role };
  if (!isRole(user.role)) throw new Error(`unexpected role ${user.role}`);
  approverSession = { id: user.id, email: user.email, name: user.name, role: user.role };
});
afterAll(async () => {
  await h.stop();
});

const BUDGET = 1000;

/** Three model calls of 600 output tokens each: the second crosses a 1,000-token budget. */
const THIRSTY_TASK = 'tokens 600\nrepeat 2 tool calculator {"expression":"1+1"}\nanswer: done';

async function startThirstyRun(limits: Record<string, unknown> = {}) {
  const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["calculator"] }, { tokenBudget: BUDGET, onBudget: "ask", ...limits }), task: THIRSTY_TASK });
  await waitForStatus(h.engine, runId, ["awaiting_approval"]);
  // The workflow's own answer: on a loaded machine its query can time out, and the ledger's stand-in (marked
  // unconfirmed) does not hold what the run used against its limit.
  const [approval] = await eventually(() => h.engine.getPendingApprovals(runId), (list) => list.length > 0 && !list[0]?.unconfirmed, 20_000, "the run to answer with its budget request");
  if (!approval) throw new Error("expected a pending budget approval");
  return { runId, approval };
}

/** Replays every execution of a closed workflow on today's code: waiting for tokens is deterministic. */
async function replayAll(workflowId: string): Promise<number> {
  const dataConverter = { payloadCodecs: [createClaimCheckCodec({ db: h.db, thresholdBytes: h.config.temporal.payloadOffloadBytes })] };
  let replayed = 0;
  for await (const execution of h.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    const history = await h.client.workflow.getHandle(workflowId, execution.runId).fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: sharedWorkflowBundle(), dataConverter }, history, workflowId);
    replayed++;
  }
  return replayed;
}

function eventsOf<T extends RunEvent["type"]>(events: RunEvent[], type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);
}

// Side by side (describe.concurrent): each test is runs of its own on the harness's one worker, decided by run and
// approval id; most of a test waits on Temporal (an approval, an expiry).
describe.concurrent("onBudget ask", () => {
  it("waits for more tokens at the budget; an approved, edited amount lets the run complete beyond the original budget", async () => {
    const { runId, approval } = await startThirstyRun();
    const used = approval.budget?.used ?? 0;
    expect(approval, "a budget request, not a tool call").toMatchObject({ kind: "budget", toolName: BUDGET_APPROVAL_TOOL, status: "pending", budget: { limit: BUDGET } });
    expect(used, "it asked once the budget was used up").toBeGreaterThanOrEqual(BUDGET);
    expect(approval.arguments, "by default it asks for half the budget beyond what it used").toEqual({ tokens: BUDGET / 2 + (used - BUDGET) });
    const waiting = await h.engine.getRun(runId);
    expect(waiting.usage.inputTokens + waiting.usage.outputTokens).toBe(used);

    // The inbox reads it like any approval, with the schema of what may be edited.
    const [item] = await enrich(h.db, [approval]);
    expect(item).toMatchObject({ precedingMessage: null, toolSchema: { required: ["tokens"] } });

    // A grant must be a positive whole number, and nothing else may be edited: 422, the run keeps waiting.
    for (const editedArguments of [{ tokens: 0 }, { tokens: 2.5 }, { tokens: "lots" }, { tokens: 10, limit: 1 }, { amount: 10 }]) {
      const error = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, editedArguments, decidedBy: approver }).catch((e: unknown) => e);
      expect(error, JSON.stringify(editedArguments)).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).status).toBe(422);
      expect((error as ValidationError).userMessage).toMatch(/the granted amount is invalid: .*tokens/);
    }
    expect((await h.engine.getRun(runId)).status).toBe("awaiting_approval");

    const decided = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, editedArguments: { tokens: 5000 }, reason: "worth it", decidedBy: approver });
    expect(decided).toMatchObject({ status: "approved", decision: { editedArguments: { tokens: 5000 } } });
    const done = await waitForStatus(h.engine, runId, ["completed"]);
    expect(done.output).toBe("done");
    expect(done.usage.inputTokens + done.usage.outputTokens, "the run went on past its original budget").toBeGreaterThan(BUDGET + 600);

    const events = await h.engine.getEvents(runId);
    const [requested] = eventsOf(events, "budget_extension_requested");
    expect(requested).toMatchObject({ approvalId: approval.id, used, limit: BUDGET, requested: approval.arguments.tokens });
    expect(eventsOf(events, "budget_extended")).toEqual([expect.objectContaining({ granted: 5000, limit: BUDGET + 5000, by: approver.email })]);
    expect(eventsOf(events, "approval_decided")).toEqual([expect.objectContaining({ approvalId: approval.id, status: "approved", decidedBy: approver.email })]);

    // Recorded and audited like any approval, the granted amount as the edit.
    const record = await h.db.approvalRecord.findUniqueOrThrow({ where: { id: approval.id } });
    expect(record).toMatchObject({ runId, status: "approved", toolName: BUDGET_APPROVAL_TOOL, decidedByEmail: approver.email, reason: "worth it" });
    expect(JSON.parse(record.editedArguments ?? "{}")).toEqual({ tokens: 5000 });
    const audit = await h.db.auditEvent.findUniqueOrThrow({ where: { id: `approval:${approval.id}` } });
    expect(audit).toMatchObject({ action: "approval.approved", actorId: approver.id, target: `${runId}/${approval.id}` });
  });

  it("bulk approval grants the amount asked for; a grant too small to go on asks again", async () => {
    const { runId, approval } = await startThirstyRun();
    const [outcome] = await decideMany(h.engine, approverSession, { items: [{ runId, approvalId: approval.id }], approved: true });
    expect(outcome).toMatchObject({ ok: true, status: "approved" });
    const granted = Number(approval.arguments.tokens);

    // The next model call (600 more) crosses the new limit: a second request, which a tiny grant does not settle.
    const second = await eventually(
      () => h.engine.getPendingApprovals(runId),
      (pending) => pending.length === 1 && pending[0]?.id !== approval.id && !pending[0]?.unconfirmed,
      20_000,
      "a second budget request",
    ).then((pending) => pending[0] as ApprovalRequest);
    expect(second.budget?.limit).toBe(BUDGET + granted);
    await h.engine.decideApproval(runId, { approvalId: second.id, approved: true, editedArguments: { tokens: 1 }, decidedBy: approver });
    const third = await eventually(
      () => h.engine.getPendingApprovals(runId),
      (pending) => pending.length === 1 && pending[0]?.id !== second.id && !pending[0]?.unconfirmed,
      20_000,
      "a third request after a grant too small to go on",
    ).then((pending) => pending[0] as ApprovalRequest);
    expect(third.budget?.limit).toBe(BUDGET + granted + 1);
    await h.engine.decideApproval(runId, { approvalId: third.id, approved: true, editedArguments: { tokens: 10_000 }, decidedBy: approver });
    const done = await waitForStatus(h.engine, runId, ["completed"]);
    expect(done.output).toBe("done");
    const extended = eventsOf(await h.engine.getEvents(runId), "budget_extended");
    expect(extended.map((e) => e.granted)).toEqual([granted, 1, 10_000]);
  });

  it("a rejection stops the run with budget_exceeded, naming who stopped it and why", async () => {
    const { runId, approval } = await startThirstyRun();
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: false, reason: "this agent is looping", decidedBy: approver });
    const failed = await waitForStatus(h.engine, runId, ["failed"]);
    expect(failed.error?.reason).toBe("budget_exceeded");
    expect(failed.error?.message).toContain(`of its ${BUDGET}-token budget`);
    expect(failed.error?.message).toContain(`${approver.email} declined to grant more tokens: this agent is looping`);
    expect(eventsOf(await h.engine.getEvents(runId), "budget_extended"), "nothing was granted").toEqual([]);
    expect(await h.db.auditEvent.findUniqueOrThrow({ where: { id: `approval:${approval.id}` } })).toMatchObject({ action: "approval.rejected" });
  });

  it("an expired request stops the run with budget_exceeded; it expires before the run's own timeout", async () => {
    // Long enough for the run to reach its request first, on a slow machine too (wait-scale.ts): with 5 s, workflow
    // tasks of 6-10 s on a machine half as fast let the run's own timeout win (npm test, 2026-12-01).
    const timeoutSeconds = Math.ceil(5 * waitScale());
    const { runId, approval } = await startThirstyRun({ runTimeoutSeconds: timeoutSeconds });
    expect(Date.parse(approval.expiresAt) - Date.parse(approval.requestedAt), "within the run timeout").toBeLessThan(timeoutSeconds * 1000);
    const failed = await waitForStatus(h.engine, runId, ["failed"], 20_000);
    expect(failed.error?.reason).toBe("budget_exceeded");
    expect(failed.error?.message).toContain("the request for more tokens expired before an approver decided");
    expect(await h.db.approvalRecord.findUniqueOrThrow({ where: { id: approval.id } })).toMatchObject({ status: "expired", decidedByEmail: null });
  });

  it("carries the granted tokens into the run's next execution, and its histories replay", async () => {
    const { runId, approval } = await startThirstyRun({ followUpWindowSeconds: 0 });
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, editedArguments: { tokens: 5000 }, decidedBy: approver });
    await waitForStatus(h.engine, runId, ["completed"]);
    await h.client.workflow.getHandle(runId).result();

    // The run closed; a follow-up starts a new execution with the carried state: already past the
    // original budget, it goes on within the granted tokens without asking again.
    await h.engine.sendMessage(runId, "tokens 600\nanswer: again");
    const again = await eventually(() => h.engine.getRun(runId), (s) => s.output === "again", 20_000, "the follow-up's answer");
    expect(again.usage.inputTokens + again.usage.outputTokens).toBeGreaterThan(BUDGET * 2);
    expect(eventsOf(await h.engine.getEvents(runId), "budget_extension_requested"), "one request, in the first execution").toHaveLength(1);
    await h.client.workflow.getHandle(runId).result();
    expect(await replayAll(runId), "both executions replayed").toBe(2);
  });

  it("a sub-agent spends at most its share of what the run has left and never asks; the root asks once the reply takes it past its budget", async () => {
    const graph = {
      entryAgent: "lead",
      agents: [
        { name: "lead", model: "demo/lead", subAgents: ["helper"] },
        { name: "helper", description: "helps", model: "demo/helper" },
      ],
      limits: { tokenBudget: BUDGET, onBudget: "ask" as const, followUpWindowSeconds: 0, subAgentIdleTimeoutSeconds: 1 },
    };
    const { runId } = await h.engine.startRun({ graph, task: "message helper: tokens 2000\nanswer: lead done" });
    // One budget per run tree: the root alone asks approvers; the conversation fails at its share.
    const parentRequest = await eventually(
      () => h.engine.listPendingApprovals().then((all) => all.filter((a) => a.rootRunId === runId)),
      // Confirmed by the run itself (a loaded machine's query timeout answers from the ledger, without the budget figures).
      (pending) => pending.length === 1 && !pending[0]?.unconfirmed,
      20_000,
      "the root's request, once the reply's tokens count",
    ).then((pending) => pending[0] as ApprovalRequest);
    expect(parentRequest).toMatchObject({ kind: "budget", agentName: "lead", runId, budget: { limit: BUDGET } });
    const reply = eventsOf(await h.engine.getEvents(runId), "sub_agent_reply")[0];
    expect(reply?.response).toMatch(/helper failed \(budget_exceeded\)/);
    const helperRun = reply?.conversationId ?? "";
    const helper = await h.engine.getRun(helperRun);
    expect(helper.error?.reason).toBe("budget_exceeded");
    // Its limit was what the lead had left, not the graph's whole budget.
    const limit = Number(/of its (\d+)-token budget/.exec(helper.error?.message ?? "")?.[1]);
    expect(limit).toBeLessThan(BUDGET);
    await h.engine.decideApproval(runId, { approvalId: parentRequest.id, approved: true, decidedBy: approver });
    const done = await waitForStatus(h.engine, runId, ["completed"]);
    expect(done.output).toBe("lead done");
    await h.client.workflow.getHandle(runId).result();
    expect(await replayAll(runId)).toBe(1);
    expect(await replayAll(helperRun)).toBe(1);
  });

  it("parallel sub-agent replies that cross the budget together wait for one request", async () => {
    const graph = {
      entryAgent: "lead",
      agents: [
        { name: "lead", model: "demo/lead", subAgents: ["north", "south"] },
        { name: "north", description: "one side", model: "demo/north" },
        { name: "south", description: "the other side", model: "demo/south" },
      ],
      limits: { tokenBudget: BUDGET, onBudget: "ask" as const, followUpWindowSeconds: 0, subAgentIdleTimeoutSeconds: 1 },
    };
    const { runId } = await h.engine.startRun({ graph, task: "message north: tokens 2000 && message south: tokens 2000\nanswer: both done" });
    // Both replies are in and each took the parent past its budget: one request is pending, not two (the sub-agents ask none).
    await eventually(() => h.engine.getEvents(runId), (events) => eventsOf(events, "sub_agent_reply").length === 2, 20_000, "both replies");
    const pending = await eventually(() => h.engine.listPendingApprovals().then((all) => all.filter((a) => a.rootRunId === runId)), (list) => list.length >= 1, 20_000, "the root's request");
    expect(pending.map((a) => [a.kind, a.runId])).toEqual([["budget", runId]]);
    await h.engine.decideApproval(runId, { approvalId: pending[0]?.id ?? "", approved: true, editedArguments: { tokens: 20_000 }, decidedBy: approver });
    expect((await waitForStatus(h.engine, runId, ["completed"])).output).toBe("both done");
    expect(eventsOf(await h.engine.getEvents(runId), "budget_extension_requested")).toHaveLength(1);
  });

  it("without onBudget ask the run fails at the budget and never asks", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["calculator"] }, { tokenBudget: BUDGET }), task: THIRSTY_TASK });
    const failed = await waitForStatus(h.engine, runId, ["failed"]);
    expect(failed.error?.reason).toBe("budget_exceeded");
    expect(eventsOf(await h.engine.getEvents(runId), "budget_extension_requested")).toEqual([]);
    expect(await h.db.approvalRecord.count({ where: { runId } })).toBe(0);
  });
});
