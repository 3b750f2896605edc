// Human approval of tool calls: pause, approve (as is / edited), reject with a
// reason, expiry, double decisions, roles, and the pending-approval search attribute.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { ApprovalAlreadyDecided, ApprovalNotFound } from "../../lib/engine/errors";
import { ForbiddenError, ValidationError } from "../../lib/errors";
import { testProviders, type TestDatabase } from "../../scripts/test-support/databases";

const providers = await testProviders();
let h: EngineHarness;
let approver: { id: string; email: string; role: string };
let viewer: { id: string; email: string; role: string };

async function setUp(create: () => Promise<TestDatabase>) {
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

describe.each(providers)("approvals on $provider", ({ available, create }) => {
  beforeAll(async () => {
    if (available) await setUp(create);
  });
  afterAll(async () => {
    if (available) await h.stop();
  });

  it.skipIf(!available)("pauses, shows in the search attribute, runs the tool once approved, and clears", async () => {
    const { runId, approval } = await startTransfer(12.5);
    expect(approval).toMatchObject({ toolName: "ledger_transfer", agentName: "main", runId, parentRunId: null, requiredRole: "approver", status: "pending" });
    expect(approval.arguments).toMatchObject({ amount: 12.5, to_account: "refunds" });
    expect(Date.parse(approval.expiresAt) - Date.parse(approval.requestedAt)).toBe(3600_000);
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(0);
    await eventually(pendingRunIds, (ids) => ids.includes(runId), 15_000, "the run to be listed with pending approvals");
    expect((await h.engine.listPendingApprovals()).map((a) => a.id)).toContain(approval.id);

    const decided = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, reason: "customer verified", decidedBy: approver });
    expect(decided).toMatchObject({ status: "approved", decision: { approved: true, reason: "customer verified", decidedBy: approver } });
    await waitForStatus(h.engine, runId, ["completed"]);
    const entries = await h.db.ledgerEntry.findMany({ where: { runId } });
    expect(entries.map((e) => e.amountCents)).toEqual([1250]);
    await eventually(pendingRunIds, (ids) => !ids.includes(runId), 15_000, "the run to leave the pending-approval list");

    const audit = await h.db.auditEvent.findFirst({ where: { action: "approval.approved", target: `${runId}/${approval.id}` } });
    expect(JSON.parse(audit?.details ?? "{}")).toMatchObject({ tool: "ledger_transfer", reason: "customer verified" });
    const events = await h.engine.getEvents(runId);
    expect(events.find((e) => e.type === "approval_decided")).toMatchObject({ status: "approved", decidedBy: "approver@zap.local", reason: "customer verified" });
  });

  it.skipIf(!available)("runs the tool with edited arguments", async () => {
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

  it.skipIf(!available)("refuses edited arguments that fail the tool's schema", async () => {
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

  it.skipIf(!available)("gives a rejection's reason to the model as the tool result", async () => {
    const { runId, approval } = await startTransfer(99);
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: false, reason: "amount exceeds the refund policy", decidedBy: approver });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    const history = await h.engine.getHistory(runId);
    const toolMessage = history.find((m) => m.role === "tool");
    expect(toolMessage?.role === "tool" && toolMessage.content).toContain("amount exceeds the refund policy");
    expect(summary.output).toContain("amount exceeds the refund policy");
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(0);
  });

  it.skipIf(!available)("rejects automatically when the approval expires", async () => {
    const { runId, approval } = await startTransfer(3, 1);
    await waitForStatus(h.engine, runId, ["completed"], 20_000);
    const events = await h.engine.getEvents(runId);
    expect(events.find((e) => e.type === "approval_decided")).toMatchObject({ approvalId: approval.id, status: "expired", decidedBy: null });
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(0);
    const history = await h.engine.getHistory(runId);
    expect(JSON.stringify(history)).toContain("expired");
  });

  it.skipIf(!available)("refuses a second decision, an unknown id, and the wrong role with clear errors", async () => {
    const { runId, approval } = await startTransfer(4);
    await expect(h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: viewer })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(h.engine.decideApproval(runId, { approvalId: "no-such-approval", approved: true, decidedBy: approver })).rejects.toBeInstanceOf(ApprovalNotFound);
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: false, reason: "no", decidedBy: approver });
    const second = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: approver }).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(ApprovalAlreadyDecided);
    expect((second as ApprovalAlreadyDecided).userMessage).toMatch(/already rejected/);
    await waitForStatus(h.engine, runId, ["completed"]);
  });
});
