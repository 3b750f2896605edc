// Approval policy enforced in the workflow: several distinct approvers, no
// self-approval, an expiry that approves; and the signed webhook that hears of
// every request, decision and expiry.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { freePort } from "../../scripts/test-support/ports";
import { ApprovalAlreadyDecided } from "../../lib/engine/errors";
import { ForbiddenError } from "../../lib/errors";
import { writeWorkspacePolicy } from "../../lib/policy/store";
import { SEED_WORKSPACE_POLICY } from "../../lib/policy/schemas";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyWebhookSignature } from "../activities/notifications";

const SECRET = "webhook-secret-for-tests";
let h: EngineHarness;
let server: Server;
const received: { event: string; body: string; signature: string; timestamp: string; delivery: string }[] = [];
let failNext = 0;

type Person = { id: string; email: string; role: string };
let approver: Person;
let admin: Person;

beforeAll(async () => {
  const port = await freePort();
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      // The first delivery fails, to show that deliveries are retried.
      if (failNext > 0) {
        failNext--;
        response.writeHead(500).end();
        return;
      }
      received.push({ event: String(request.headers["x-zap-event"]), body, signature: String(request.headers[SIGNATURE_HEADER]), timestamp: String(request.headers[TIMESTAMP_HEADER]), delivery: String(request.headers["x-zap-delivery"]) });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  // The receiver is on loopback: the operator lists it for the egress guard.
  h = await startEngineHarness({ env: { ZAP_WEBHOOK_URL: `http://127.0.0.1:${port}/hook`, ZAP_WEBHOOK_SECRET: SECRET, ZAP_EGRESS_ALLOW_HOSTS: `127.0.0.1:${port}` } });
  const person = async (email: string): Promise<Person> => {
    const u = await h.db.user.findUniqueOrThrow({ where: { email } });
    return { id: u.id, email: u.email, role: u.role };
  };
  approver = await person("approver@zap.local");
  admin = await person("admin@zap.local");
});
afterAll(async () => {
  await h?.stop();
  server?.close();
});

const transfer = (amount: number) => `tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":${amount}}\nanswer: done`;
const gated = (rule: Record<string, unknown>) => singleAgentGraph({ tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", ...rule }] });

async function pendingApproval(runId: string) {
  await waitForStatus(h.engine, runId, ["awaiting_approval"]);
  const [approval] = await h.engine.getPendingApprovals(runId);
  if (!approval) throw new Error("expected a pending approval");
  return approval;
}

describe("approval policy", () => {
  it("a rule needing two approvals completes only after two different approvers", async () => {
    const { runId } = await h.engine.startRun({ graph: gated({ requiredApprovals: 2 }), task: transfer(2) });
    const approval = await pendingApproval(runId);
    const first = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, reason: "looks fine", decidedBy: approver });
    expect(first).toMatchObject({ status: "pending", endorsements: [{ by: { email: approver.email } }] });
    await expect(h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: approver })).rejects.toBeInstanceOf(ApprovalAlreadyDecided);
    expect((await h.engine.getRun(runId)).status).toBe("awaiting_approval");
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(0);
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: admin });
    await waitForStatus(h.engine, runId, ["completed"]);
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(1);
    const audit = await h.db.auditEvent.findMany({ where: { target: `${runId}/${approval.id}` }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["approval.endorsed", "approval.approved"]);
  });

  it("a single rejection rejects a call that needs several approvals", async () => {
    const { runId } = await h.engine.startRun({ graph: gated({ requiredApprovals: 3 }), task: transfer(3) });
    const approval = await pendingApproval(runId);
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: approver });
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: false, reason: "not this month", decidedBy: admin });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.output).toBe("done");
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(0);
    expect((await h.db.approvalRecord.findUniqueOrThrow({ where: { id: approval.id } })).status).toBe("rejected");
  });

  it("refuses the requester's own approval where the rule says so, and takes another approver's", async () => {
    const { runId } = await h.engine.startRun({ graph: gated({ allowSelfApproval: false }), task: transfer(4), startedBy: { id: approver.id, email: approver.email } });
    const approval = await pendingApproval(runId);
    expect(approval.requestedBy).toBe(approver.email);
    const error = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: approver }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).userMessage).toMatch(/started this run, wrote the agent version it runs or sent the message the call follows, and may not approve/);
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: admin });
    await waitForStatus(h.engine, runId, ["completed"]);
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(1);
  });

  it("a follow-up's sender counts as self for the calls that follow it: refused as approver, another approver decides", async () => {
    const builder = await h.db.user.findFirstOrThrow({ where: { role: "builder" } });
    const { runId } = await h.engine.startRun({ graph: gated({ allowSelfApproval: false }), task: "answer: ready", startedBy: { id: builder.id, email: builder.email } });
    await waitForStatus(h.engine, runId, ["completed"]);
    // The approver steers the run: the transfer that follows is "theirs" as much as the starter's.
    await h.engine.sendMessage(runId, transfer(6), undefined, { id: approver.id, email: approver.email });
    const approval = await pendingApproval(runId);
    expect(approval.selfIds).toEqual(expect.arrayContaining([builder.id, approver.id]));
    const error = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: approver }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).userMessage).toMatch(/sent the message the call follows, and may not approve/);
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: admin });
    await eventually(() => h.db.ledgerEntry.count({ where: { runId } }), (n) => n === 1, 20_000, "the approved transfer");
  });

  it("…and for the calls of the sub-agent conversations that follow it, however deep", async () => {
    const builder = await h.db.user.findFirstOrThrow({ where: { role: "builder" } });
    const graph = {
      entryAgent: "lead",
      agents: [
        { name: "lead", model: "demo/lead", subAgents: ["payer"] },
        { name: "payer", model: "demo/payer", description: "pays", tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", allowSelfApproval: false }] },
      ],
      limits: { followUpWindowSeconds: 60 },
    };
    const { runId } = await h.engine.startRun({ graph, task: "answer: ready", startedBy: { id: builder.id, email: builder.email } });
    await waitForStatus(h.engine, runId, ["completed"]);
    // The approver's follow-up has the lead ask its sub-agent for a transfer: the call in the child run is theirs too.
    await h.engine.sendMessage(runId, 'message payer: tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":8}\nanswer: asked', undefined, {
      id: approver.id,
      email: approver.email,
    });
    const childRunId = await eventually(async () => (await h.engine.getConversations(runId))[0]?.conversationId ?? "", (id) => id !== "", 20_000, "the conversation to start");
    const approval = await pendingApproval(childRunId);
    expect(approval.selfIds).toEqual(expect.arrayContaining([builder.id, approver.id]));
    const error = await h.engine.decideApproval(childRunId, { approvalId: approval.id, approved: true, decidedBy: approver }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).userMessage).toMatch(/sent the message the call follows, and may not approve/);
    await h.engine.decideApproval(childRunId, { approvalId: approval.id, approved: true, decidedBy: admin });
    await eventually(() => h.db.ledgerEntry.count({ where: { runId: { in: [runId, childRunId] } } }), (n) => n === 1, 20_000, "the approved transfer");
  });

  it("an expiry that approves runs the call, recorded as expired (where the workspace policy allows it)", async () => {
    // The run takes the policy as it stands when it starts; restored at once for the other tests.
    await writeWorkspacePolicy(h.db, admin.id, { exemptTools: ["kb__*"], floors: { allowedExpiryOutcomes: ["reject", "approve"] } });
    const { runId } = await h.engine.startRun({ graph: gated({ expiresInSeconds: 1, onExpiry: "approve" }), task: transfer(5) }).finally(() => writeWorkspacePolicy(h.db, admin.id, SEED_WORKSPACE_POLICY));
    const approval = await pendingApproval(runId);
    await waitForStatus(h.engine, runId, ["completed"], 20_000);
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(1);
    expect(await h.db.approvalRecord.findUniqueOrThrow({ where: { id: approval.id } })).toMatchObject({ status: "expired", reason: "expired; the rule approves on expiry" });
  });

  it("the webhook receives request, decision and expiry, signed, after a failed first delivery", async () => {
    failNext = 1;
    const rejected = await h.engine.startRun({ graph: gated({}), task: transfer(6) });
    const approval = await pendingApproval(rejected.runId);
    await h.engine.decideApproval(rejected.runId, { approvalId: approval.id, approved: false, reason: "suspicious", decidedBy: approver });
    const expiring = await h.engine.startRun({ graph: gated({ expiresInSeconds: 1 }), task: transfer(7) });
    const expired = await pendingApproval(expiring.runId);

    // Deliveries are independent (a retried one may arrive late): receivers order them by `at`.
    const about = (id: string) =>
      received
        .map((r) => ({ ...r, parsed: JSON.parse(r.body) as { approval: { id: string }; at: string } }))
        .filter((r) => r.parsed.approval.id === id)
        .sort((a, b) => a.parsed.at.localeCompare(b.parsed.at));
    await eventually(async () => [...about(approval.id), ...about(expired.id)].map((r) => r.event), (events) => events.includes("approval.rejected") && events.includes("approval.expired"), 30_000, "the webhook deliveries");
    expect(failNext, "a delivery was refused once").toBe(0);
    expect(about(approval.id).map((r) => r.event)).toEqual(["approval.requested", "approval.rejected"]);
    expect(about(expired.id).map((r) => r.event)).toEqual(["approval.requested", "approval.expired"]);
    for (const r of received) expect(verifyWebhookSignature(r.body, r.timestamp, r.signature, SECRET), `signature of ${r.event}`).toBe(true);
    const decision = JSON.parse(about(approval.id)[1]?.body ?? "{}") as { text: string; approval: { decision: { reason: string } } };
    expect(decision.approval.decision.reason).toBe("suspicious");
    expect(decision.text, "Slack-compatible text").toMatch(/^Rejected by approver@zap.local/);
    expect(new Set(received.map((r) => r.delivery)).size, "one delivery id per notification").toBe(received.length);
  });
});
