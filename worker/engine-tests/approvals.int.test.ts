// Human approval of tool calls: pause, approve (as is / edited), reject with a
// reason, expiry, double decisions, roles, and the pending-approval search attribute.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { ApprovalAlreadyDecided, ApprovalNotFound } from "../../lib/engine/errors";
import { ForbiddenError, ValidationError } from "../../lib/errors";
import { testProviders } from "../../scripts/test-support/databases";
import { WorkflowUpdateStage } from "@temporalio/client";
import { decideApprovalUpdate } from "../../lib/contract/definitions";
import { signedDecision } from "../../lib/engine/decision-signature";
import { configuredKey } from "../../lib/crypto/keys";

const providers = await testProviders();

// The providers side by side (each its own harness); a provider's tests in order (sequential): some read the list
// of runs waiting for an approval.
describe.concurrent.each(providers)("approvals on $provider", ({ available, create }) => {
  let h: EngineHarness;
  let approver: { id: string; email: string; role: string };
  let viewer: { id: string; email: string; role: string };

  async function setUp() {
    h = await startEngineHarness({ database: await create() });
    const user = async (email: string) => {
      const u = await h.db.user.findUniqueOrThrow({ where: { email } });
      return { id: u.id, email: u.email, role: u.role };
    };
    approver = await user("approver@zap.local");
    viewer = await user("viewer@zap.local");
  }

  const transferGraph = (expiresInSeconds = 3600) =>
    singleAgentGraph({ tools: ["ledger_transfer", "ledger_balance"], approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver", expiresInSeconds }] });

  async function startTransfer(amount: number, expiresInSeconds?: number) {
    const { runId } = await h.engine.startRun({
      graph: transferGraph(expiresInSeconds),
      task: `tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":${amount},"memo":"refund"}`,
    });
    await waitForStatus(h.engine, runId, ["awaiting_approval"]);
    const [approval] = await h.engine.getPendingApprovals(runId);
    if (!approval) throw new Error("expected a pending approval");
    return { runId, approval };
  }

  async function pendingRunIds(): Promise<string[]> {
    return (await h.engine.listRuns({ pendingApprovalsOnly: true })).map((r) => r.runId);
  }

  beforeAll(async () => {
    if (available) await setUp();
  });
  afterAll(async () => {
    if (available) await h.stop();
  });

  it.skipIf(!available).sequential("pauses, shows in the search attribute, runs the tool once approved, and clears", async () => {
    const { runId, approval } = await startTransfer(12.5);
    expect(approval).toMatchObject({ toolName: "ledger_transfer", agentName: "main", runId, parentRunId: null, requiredRole: "approver", status: "pending" });
    expect(approval.arguments).toMatchObject({ amount: 12.5, to_account: "refunds" });
    expect(Date.parse(approval.expiresAt) - Date.parse(approval.requestedAt)).toBe(3600_000);
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(0);
    await eventually(pendingRunIds, (ids) => ids.includes(runId), 15_000, "the run to be listed with pending approvals");
    expect((await h.engine.listPendingApprovals()).map((a) => a.id)).toContain(approval.id);

    const decided = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, reason: "customer verified", decidedBy: approver });
    expect(decided).toMatchObject({ status: "approved", decision: { approved: true, reason: "customer verified", decidedBy: approver } });
    const done = await waitForStatus(h.engine, runId, ["completed"]);
    expect(done.endedAt, "a completed run says when it ended").not.toBeNull();
    expect(Date.parse(done.endedAt ?? "")).toBeGreaterThanOrEqual(Date.parse(done.startedAt));
    const entries = await h.db.ledgerEntry.findMany({ where: { runId } });
    expect(entries.map((e) => e.amountCents)).toEqual([1250]);
    await eventually(pendingRunIds, (ids) => !ids.includes(runId), 15_000, "the run to leave the pending-approval list");

    const audit = await h.db.auditEvent.findFirst({ where: { action: "approval.approved", target: `${runId}/${approval.id}` } });
    expect(JSON.parse(audit?.details ?? "{}")).toMatchObject({ tool: "ledger_transfer", reason: "customer verified" });
    const events = await h.engine.getEvents(runId);
    expect(events.find((e) => e.type === "approval_decided")).toMatchObject({ status: "approved", decidedBy: "approver@zap.local", reason: "customer verified" });
  });

  it.skipIf(!available).sequential("runs the tool with edited arguments", async () => {
    const { runId, approval } = await startTransfer(500);
    await h.engine.decideApproval(runId, {
      approvalId: approval.id,
      approved: true,
      editedArguments: { from_account: "operating", to_account: "refunds", amount: 50 },
      decidedBy: approver,
    });
    await waitForStatus(h.engine, runId, ["completed"]);
    expect((await h.db.ledgerEntry.findMany({ where: { runId } })).map((e) => e.amountCents)).toEqual([5000]);
  });

  it.skipIf(!available).sequential("refuses edited arguments that fail the tool's schema", async () => {
    const { runId, approval } = await startTransfer(1);
    const error = await h.engine
      .decideApproval(runId, { approvalId: approval.id, approved: true, editedArguments: { amount: "lots" }, decidedBy: approver })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).userMessage).toMatch(/amount: expected number, got string/);
    expect((error as ValidationError).userMessage).toMatch(/from_account: required/);
    expect((await h.engine.getRun(runId)).status).toBe("awaiting_approval");
    await h.engine.cancelRun(runId);
  });

  it.skipIf(!available).sequential("gives a rejection's reason to the model as the tool result", async () => {
    const { runId, approval } = await startTransfer(99);
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: false, reason: "amount exceeds the refund policy", decidedBy: approver });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    const history = await h.engine.getHistory(runId);
    const toolMessage = history.find((m) => m.role === "tool");
    expect(toolMessage?.role === "tool" && toolMessage.content).toContain("amount exceeds the refund policy");
    expect(summary.output).toContain("amount exceeds the refund policy");
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(0);
  });

  it.skipIf(!available).sequential("rejects automatically when the approval expires", async () => {
    const { runId, approval } = await startTransfer(3, 1);
    await waitForStatus(h.engine, runId, ["completed"], 20_000);
    const events = await h.engine.getEvents(runId);
    expect(events.find((e) => e.type === "approval_decided")).toMatchObject({ approvalId: approval.id, status: "expired", decidedBy: null });
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(0);
    const history = await h.engine.getHistory(runId);
    expect(JSON.stringify(history)).toContain("expired");
  });

  it.skipIf(!available).sequential("refuses a second decision, an unknown id, and the wrong role with clear errors", async () => {
    const { runId, approval } = await startTransfer(4);
    await expect(h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: viewer })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(h.engine.decideApproval(runId, { approvalId: "no-such-approval", approved: true, decidedBy: approver })).rejects.toBeInstanceOf(ApprovalNotFound);
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: false, reason: "no", decidedBy: approver });
    const second = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: approver }).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(ApprovalAlreadyDecided);
    expect((second as ApprovalAlreadyDecided).userMessage).toMatch(/already rejected/);
    await waitForStatus(h.engine, runId, ["completed"]);
  });

  it.skipIf(!available).sequential("never asks a human to approve a call whose arguments fail the tool's schema", async () => {
    const { runId } = await h.engine.startRun({
      graph: transferGraph(),
      task: 'tool ledger_transfer {"from_account":"operating","amount":-5}\nanswer: gave up',
    });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.output).toBe("gave up");
    const events = await h.engine.getEvents(runId);
    expect(events.some((e) => e.type === "approval_requested"), "no approval was requested").toBe(false);
    const completed = events.find((e) => e.type === "tool_call_completed");
    expect(completed).toMatchObject({ outcome: "error" });
    expect(completed?.type === "tool_call_completed" && completed.result).toMatch(/to_account: required.*amount: must be greater than 0|amount: must be greater than 0.*to_account: required/);
    expect(await h.db.approvalRecord.count({ where: { runId } })).toBe(0);
  });

  it.skipIf(!available).sequential("records each decision and expiry with its audit event before the run goes on", async () => {
    const { runId, approval } = await startTransfer(7);
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, editedArguments: { from_account: "operating", to_account: "refunds", amount: 6 }, reason: "ok", decidedBy: approver });
    const record = await h.db.approvalRecord.findUniqueOrThrow({ where: { id: approval.id } });
    expect(record).toMatchObject({ runId, status: "approved", decidedByEmail: "approver@zap.local", decidedById: approver.id, reason: "ok", toolName: "ledger_transfer" });
    expect(JSON.parse(record.arguments)).toMatchObject({ amount: 7 });
    expect(JSON.parse(record.editedArguments ?? "{}")).toMatchObject({ amount: 6 });
    const audit = await h.db.auditEvent.findUniqueOrThrow({ where: { id: `approval:${approval.id}` } });
    expect(audit).toMatchObject({ action: "approval.approved", actorId: approver.id, target: `${runId}/${approval.id}` });
    await waitForStatus(h.engine, runId, ["completed"]);

    const expiring = await startTransfer(8, 1);
    await waitForStatus(h.engine, expiring.runId, ["completed"], 20_000);
    expect(await h.db.approvalRecord.findUniqueOrThrow({ where: { id: expiring.approval.id } })).toMatchObject({ status: "expired", decidedByEmail: null });
    expect(await h.db.auditEvent.findUniqueOrThrow({ where: { id: `approval:${expiring.approval.id}` } })).toMatchObject({ action: "approval.expired", actorId: null });
  });

  it.skipIf(!available).sequential("applies a decision whose sender vanished right after the workflow accepted it, with its record", async () => {
    const { runId, approval } = await startTransfer(9);
    // The web process would die here: the update is accepted, nobody waits for its result or writes anything.
    await h.client.workflow.getHandle(runId).startUpdate(decideApprovalUpdate, {
      args: [signedDecision(configuredKey(h.config, "approval-decisions"), runId, { approvalId: approval.id, approved: true, reason: "sent, then the sender crashed", decidedBy: approver })],
      waitForStage: WorkflowUpdateStage.ACCEPTED,
    });
    await waitForStatus(h.engine, runId, ["completed"]);
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(1);
    expect(await h.db.auditEvent.count({ where: { id: `approval:${approval.id}` } })).toBe(1);
    expect((await h.db.approvalRecord.findUniqueOrThrow({ where: { id: approval.id } })).status).toBe("approved");
  });

  it.skipIf(!available).sequential("two simultaneous decisions: exactly one is recorded, the other hears who won", async () => {
    const { runId, approval } = await startTransfer(10);
    const admin = await h.db.user.findUniqueOrThrow({ where: { email: "admin@zap.local" } });
    const results = await Promise.allSettled([
      h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: approver }),
      h.engine.decideApproval(runId, { approvalId: approval.id, approved: false, reason: "no", decidedBy: { id: admin.id, email: admin.email, role: admin.role } }),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]?.reason).toBeInstanceOf(ApprovalAlreadyDecided);
    const winner = won[0]?.status === "fulfilled" ? won[0].value.decision?.decidedBy.email : "";
    expect((lost[0]?.reason as ApprovalAlreadyDecided).userMessage).toContain(`by ${winner}`);
    expect(await h.db.auditEvent.count({ where: { target: `${runId}/${approval.id}` } })).toBe(1);
    await waitForStatus(h.engine, runId, ["completed"]);
  });
  it.skipIf(!available).sequential("a run cancelled while a call waits withdraws its approval: recorded, audited, not waiting anywhere", async () => {
    const { runId, approval } = await startTransfer(3.25);
    await eventually(() => h.db.approvalRecord.findUnique({ where: { id: approval.id } }), (row) => row?.status === "pending", 15_000, "the pending record");
    await h.engine.cancelRun(runId);
    await waitForStatus(h.engine, runId, ["cancelled"]);
    // It used to stay pending for ever: the runs list said "cancelled · 1 waiting" and the pending gauge and its monitors counted it.
    const row = await eventually(() => h.db.approvalRecord.findUniqueOrThrow({ where: { id: approval.id } }), (r) => r.status !== "pending", 15_000, "the record to close");
    expect(row).toMatchObject({ status: "withdrawn", reason: "the run ended (cancelled) before a decision", decidedByEmail: null });
    expect(row.decidedAt).not.toBeNull();
    const audit = await h.db.auditEvent.findMany({ where: { target: `${runId}/${approval.id}` } });
    expect(audit.map((a) => a.action)).toEqual(["approval.withdrawn"]);
    expect(JSON.parse(audit[0]?.details ?? "{}")).toMatchObject({ tool: "ledger_transfer", reason: "the run ended (cancelled) before a decision", decidedBy: null });
    expect(await h.db.run.findUniqueOrThrow({ where: { id: runId }, select: { pendingApprovals: true, status: true } })).toEqual({ pendingApprovals: 0, status: "cancelled" });
    expect(await pendingRunIds()).not.toContain(runId);
    expect(await h.db.approvalRecord.count({ where: { runId, status: "pending" } })).toBe(0);
    // Nothing moved: the transfer never ran.
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(0);
  });
});
