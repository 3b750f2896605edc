// The approval gate belongs to the admins, not to the people it checks (issue
// 14 §3): deny-by-default for side-effecting and MCP tools, floors a graph rule
// cannot lower, "self" = starter or version author, sub-agents inheriting their
// parent's rules, and decisions that only the web server can make.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkflowUpdateFailedError } from "@temporalio/client";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { decideApprovalUpdate } from "../contract/definitions";
import { saveAgentVersion } from "../agents/repository";
import { ForbiddenError, ValidationError } from "../errors";
import type { RunEvent } from "../contract/types";

type Person = { id: string; email: string; role: string };
let h: EngineHarness;
let approver: Person;
let admin: Person;
let secondApprover: Person;

beforeAll(async () => {
  // The workspace policy an admin would set: the knowledge base's search is harmless, nothing else is exempt;
  // expiries may only reject (the default floor).
  h = await startEngineHarness({ policy: { exemptTools: ["kb__search_kb"] } });
  const person = async (email: string): Promise<Person> => {
    const u = await h.db.user.findUniqueOrThrow({ where: { email } });
    return { id: u.id, email: u.email, role: u.role };
  };
  approver = await person("approver@zap.local");
  admin = await person("admin@zap.local");
  const other = await h.db.user.create({ data: { email: `approver2-${randomUUID().slice(0, 8)}@zap.local`, name: "Second approver", role: "approver", passwordHash: "x" } });
  secondApprover = { id: other.id, email: other.email, role: other.role };
});
afterAll(async () => h?.stop());

const transfer = (amount: number) => `tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":${amount}}\nanswer: done`;

async function pendingApproval(runId: string) {
  await waitForStatus(h.engine, runId, ["awaiting_approval"]);
  const [approval] = await h.engine.getPendingApprovals(runId);
  if (!approval) throw new Error("expected a pending approval");
  return approval;
}

async function toolOutcomes(runId: string): Promise<Record<string, string>> {
  const events = await h.engine.getEvents(runId);
  const completed = events.filter((e): e is Extract<RunEvent, { type: "tool_call_completed" }> => e.type === "tool_call_completed");
  return Object.fromEntries(completed.map((e) => [e.tool, e.outcome]));
}

describe("deny by default and floors", () => {
  it("a graph without any rule still gates ledger_transfer: the builder deleted the rule, the call waits anyway", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["ledger_transfer", "calculator"] }), task: `tool calculator {"expression":"1+1"}\n${transfer(1)}` });
    const approval = await pendingApproval(runId);
    expect(approval).toMatchObject({ toolName: "ledger_transfer", allowSelfApproval: false, onExpiry: "reject" });
    expect(await h.db.ledgerEntry.count({ where: { runId } }), "no money moved before a human said yes").toBe(0);
    expect(await toolOutcomes(runId), "a read-only built-in ran ungated").toMatchObject({ calculator: "ok" });
    await h.engine.cancelRun(runId);
  });

  it("a graph without rules gates an MCP tool, while a tool the policy exempts runs ungated", async () => {
    const { runId } = await h.engine.startRun({
      graph: singleAgentGraph({ mcpServers: [{ name: "kb" }] }),
      task: 'tool kb__search_kb {"query":"refund"}\ntool kb__create_ticket {"title":"Injected by a tool result","priority":"high"}\nanswer: done',
    });
    const approval = await pendingApproval(runId);
    expect(approval.toolName).toBe("kb__create_ticket");
    expect(await toolOutcomes(runId)).toMatchObject({ kb__search_kb: "ok" });
    await h.engine.cancelRun(runId);
  });

  it("a rule that approves after 1 s is held to the floor: the expiry rejects the call", async () => {
    const graph = singleAgentGraph({ tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", expiresInSeconds: 1, onExpiry: "approve", allowSelfApproval: true }] });
    const { runId } = await h.engine.startRun({ graph, task: transfer(2) });
    const approval = await pendingApproval(runId);
    expect(approval).toMatchObject({ onExpiry: "reject", allowSelfApproval: false });
    await waitForStatus(h.engine, runId, ["completed"], 20_000);
    expect(await h.db.ledgerEntry.count({ where: { runId } }), "the expiry did not run the transfer").toBe(0);
    expect(await h.db.approvalRecord.findUniqueOrThrow({ where: { id: approval.id } })).toMatchObject({ status: "expired", reason: "expired" });
    expect(await toolOutcomes(runId)).toMatchObject({ ledger_transfer: "rejected" });
  });
});

describe("self-approval", () => {
  it("neither the version's author nor the person who started the run may approve; a third person may", async () => {
    // The admin wrote the version (an admin could otherwise approve anything); the approver starts the run.
    const name = `gate-${randomUUID().slice(0, 8)}`;
    await saveAgentVersion(h.db, name, { entryAgent: "main", agents: [{ name: "main", model: "demo/test", tools: ["ledger_transfer"] }] }, { createdById: admin.id });
    const { runId } = await h.engine.startRun({ graphName: name, task: transfer(3), startedBy: { id: approver.id, email: approver.email } });
    const approval = await pendingApproval(runId);
    for (const self of [admin, approver]) {
      const error = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: self }).catch((e: unknown) => e);
      expect(error, `${self.email} is "self" for this run`).toBeInstanceOf(ForbiddenError);
    }
    // Compared by user id, not only by email: a changed email does not make the author someone else.
    const renamed = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: { ...admin, email: "someone-else@zap.local" } }).catch((e: unknown) => e);
    expect(renamed).toBeInstanceOf(ForbiddenError);
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: secondApprover });
    await waitForStatus(h.engine, runId, ["completed"]);
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(1);
  });
});

describe("several approvers", () => {
  it("the last of two approvers cannot rewrite the call the first one approved", async () => {
    const graph = singleAgentGraph({ tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", requiredApprovals: 2 }] });
    const { runId } = await h.engine.startRun({ graph, task: transfer(5) });
    const approval = await pendingApproval(runId);
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: approver });
    const rewrite = { from_account: "operating", to_account: "refunds", amount: 1_000_000 };
    const error = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, editedArguments: rewrite, decidedBy: secondApprover }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).userMessage).toMatch(/cannot be edited/);
    expect(await h.engine.getPendingApprovals(runId)).toMatchObject([{ id: approval.id, endorsements: [{ by: { email: approver.email } }] }]);
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: secondApprover });
    await waitForStatus(h.engine, runId, ["completed"]);
    const entries = await h.db.ledgerEntry.findMany({ where: { runId } });
    expect(entries.map((e) => e.amountCents), "the call both approvers saw ran, unchanged").toEqual([500]);
  });

  it("a rule naming a lower role does not lock approvers out", async () => {
    const graph = singleAgentGraph({ tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", requiredRole: "builder" as const }] });
    const { runId } = await h.engine.startRun({ graph, task: transfer(6) });
    const approval = await pendingApproval(runId);
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: approver });
    await waitForStatus(h.engine, runId, ["completed"]);
  });
});

describe("sub-agents", () => {
  it("inherit their parent's rules: a rule on the lead gates the calculator its helper calls", async () => {
    const graph = {
      entryAgent: "lead",
      agents: [
        { name: "lead", model: "demo/lead", subAgents: ["helper"], approvalRules: [{ pattern: "calculator", requiredRole: "admin" as const }] },
        { name: "helper", model: "demo/helper", description: "does sums", tools: ["calculator"] },
      ],
      limits: { followUpWindowSeconds: 60 },
    };
    const { runId } = await h.engine.startRun({ graph, task: 'message helper: tool calculator {"expression":"6*7"}\nanswer: asked' });
    const pending = await eventually(() => h.engine.listPendingApprovals(), (list) => list.some((a) => a.rootRunId === runId), 30_000, "the helper's approval request");
    const approval = pending.find((a) => a.rootRunId === runId);
    expect(approval).toMatchObject({ agentName: "helper", toolName: "calculator", requiredRole: "admin" });
    await h.engine.cancelRun(runId);
  });
});

describe("decisions come from the web server", () => {
  it("a forged admin decision sent straight to Temporal is refused and the call stays pending; the same decision through the engine is accepted", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["ledger_transfer"] }), task: transfer(4) });
    const approval = await pendingApproval(runId);
    const handle = h.client.workflow.getHandle(runId);
    const forged = { approvalId: approval.id, approved: true, reason: "trust me", decidedBy: admin };
    const unsigned = await handle.executeUpdate(decideApprovalUpdate, { args: [forged] }).catch((e: unknown) => e);
    expect(unsigned, "no signature").toBeInstanceOf(WorkflowUpdateFailedError);
    const badSignature = await handle.executeUpdate(decideApprovalUpdate, { args: [{ ...forged, issuedAt: new Date().toISOString(), signature: "A".repeat(43) }] }).catch((e: unknown) => e);
    expect(badSignature, "a made-up signature").toBeInstanceOf(WorkflowUpdateFailedError);
    expect(((badSignature as WorkflowUpdateFailedError).cause as Error).message).toMatch(/not signed by the web server/);
    expect((await h.engine.getPendingApprovals(runId)).map((a) => a.id), "still pending").toEqual([approval.id]);
    expect(await h.db.approvalRecord.findUnique({ where: { id: approval.id } }).then((r) => r?.status ?? "pending")).toBe("pending");
    expect(await h.db.auditEvent.count({ where: { target: `${runId}/${approval.id}` } }), "nothing recorded").toBe(0);
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(0);

    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, reason: "checked", decidedBy: admin });
    await waitForStatus(h.engine, runId, ["completed"]);
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(1);
  });
});
