// Issue 39 §2, approvals by email, end to end on a real run (real Temporal,
// real database) and a real SMTP server: the request reaches the people who
// may decide it with the run, the call and the rule; the confirmation page's
// button decides it as the signed-in person; the follow-up says who decided
// and when, and the inbox shows the decision. An approval past its deadline is
// rejected by the rule's default action, audited as such, and emailed.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testProviders } from "../../scripts/test-support/databases";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { doors } from "../../scripts/test-support/parity-doors";
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from "../../scripts/test-support/smtp-receiver";
import { readRunDecisions } from "../inbox/server/decisions";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/engine/server/engine", async () => (await import("../../scripts/test-support/parity-doors")).engineModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const { decideApprovalAction } = await import("../actions/decide-approval");
const { loadApprovalPage } = await import("./server/approval-page");

const LINK_BASE = "http://zap.test";
const providers = await testProviders();

describe.each(providers)("approvals by email on $provider", ({ available, create }) => {
  let h: EngineHarness;
  let smtp: SmtpReceiver;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    if (!available) return;
    smtp = await startSmtpReceiver();
    h = await startEngineHarness({ database: await create(), env: { ZAP_SMTP_URL: smtp.url, ZAP_SMTP_FROM: "zap@zap.test", AUTH_URL: LINK_BASE } });
    doors.db = h.db;
    doors.engine = h.engine;
    doors.config = h.config;
    for (const role of ["admin", "builder", "approver", "viewer"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
  });
  afterAll(async () => {
    if (!available) return;
    await h?.stop();
    await smtp?.close();
  });

  const transfer = (amount: number) => `tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":${amount}}\nanswer: done`;
  const gated = (rule: Record<string, unknown>) => singleAgentGraph({ tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver", ...rule }] });
  const mailsAbout = (approvalId: string): ReceivedMail[] => smtp.mails.filter((m) => m.headers.get("x-zap-approval") === approvalId);

  async function pendingApproval(runId: string) {
    await waitForStatus(h.engine, runId, ["awaiting_approval"]);
    const [approval] = await h.engine.getPendingApprovals(runId);
    if (!approval) throw new Error("expected a pending approval");
    return approval;
  }

  it.skipIf(!available)("emails the request to who may decide; the page's button decides it as the signed-in approver; the follow-up and the inbox show the decision", async () => {
    const { runId } = await h.engine.startRun({ graph: gated({ expiresInSeconds: 600 }), task: transfer(7), startedBy: { id: ids.builder ?? "", email: "builder@zap.local" } });
    const approval = await pendingApproval(runId);
    const [request] = await eventually(async () => mailsAbout(approval.id), (m) => m.length >= 1, 20_000, "the request email");
    if (!request) throw new Error("no request email");
    expect(request.from).toBe("zap@zap.test");
    expect(request.to.sort(), "approvers and admins, not the builder who started it, nor a viewer").toEqual(["admin@zap.local", "approver@zap.local"]);
    expect(request.subject).toBe(`Approval needed: ledger_transfer (agent ${approval.agentName}, run ${runId})`);
    expect(request.text).toContain(`Run: ${runId}`);
    expect(request.text).toContain('"amount": 7');
    expect(request.text).toMatch(/Rule: needs one person with the approver role; .*rejected by default/);
    expect(request.text).toContain(`Approve: ${LINK_BASE}/approvals/${approval.id}?decision=approve`);
    expect(request.text).toContain(`Reject: ${LINK_BASE}/approvals/${approval.id}?decision=reject`);

    // The link's page, as the approver signed in: it shows the call, and opening it decided nothing.
    doors.userId = ids.approver ?? null;
    const page = await loadApprovalPage(approval.id);
    expect(page?.pending?.id, "the page shows the pending call").toBe(approval.id);
    expect((await h.db.approvalRecord.findUniqueOrThrow({ where: { id: approval.id } })).status).toBe("pending");

    // The page's Approve button: the inbox's one door, as the signed-in person.
    const result = await decideApprovalAction({ runId, approvalId: approval.id, approved: true });
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true, data: { status: "approved" } });
    await waitForStatus(h.engine, runId, ["completed"]);

    const followUp = (await eventually(async () => mailsAbout(approval.id), (m) => m.length >= 2, 20_000, "the follow-up email"))[1];
    expect(followUp?.text.split("\n")[0]).toMatch(/^Approved by approver@zap\.local at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.$/);
    expect(followUp?.to.sort()).toEqual(["admin@zap.local", "approver@zap.local"]);

    const [decided] = await readRunDecisions(h.db, runId);
    expect(decided, "the inbox's decided list").toMatchObject({ approvalId: approval.id, status: "approved", decidedBy: "approver@zap.local" });
    expect(await loadApprovalPage(approval.id)).toMatchObject({ pending: null, status: "approved", decidedBy: "approver@zap.local" });
    // Each message's row is marked sent once the SMTP server took it: a moment after the mail arrived.
    const sent = await eventually(
      async () => (await h.db.approvalMessage.findMany({ where: { approvalId: approval.id }, orderBy: { kind: "asc" } })).map((m) => `${m.channel}:${m.kind}`),
      (rows) => rows.length >= 2,
      10_000,
      "both messages recorded",
    );
    expect(sent).toEqual(["email:decision", "email:request"]);
  });

  it.skipIf(!available)("a send the SMTP server refuses is retried and arrives once; the run did not wait for it", async () => {
    smtp.failNext(1);
    const { runId } = await h.engine.startRun({ graph: gated({ expiresInSeconds: 600 }), task: transfer(8), startedBy: { id: ids.builder ?? "", email: "builder@zap.local" } });
    const approval = await pendingApproval(runId);
    await eventually(async () => mailsAbout(approval.id), (m) => m.length === 1, 30_000, "the retried request email");
    doors.userId = ids.admin ?? null;
    expect(await decideApprovalAction({ runId, approvalId: approval.id, approved: false, reason: "not today" })).toMatchObject({ ok: true });
    const mails = await eventually(async () => mailsAbout(approval.id), (m) => m.length >= 2, 20_000, "the follow-up email");
    expect(mails.map((m) => m.text.split("\n")[0])).toEqual([expect.stringMatching(/^Approval needed/), expect.stringMatching(/^Rejected by admin@zap\.local at .* UTC: not today\.$/)]);
  });

  it.skipIf(!available)("past its deadline, an approval is rejected by the rule's default action: the call never runs, the audit says so, the email too", async () => {
    const { runId } = await h.engine.startRun({ graph: gated({ expiresInSeconds: 1 }), task: transfer(9) });
    const summary = await waitForStatus(h.engine, runId, ["completed", "failed"]);
    expect(summary.status).toBe("completed");
    const [record] = await h.db.approvalRecord.findMany({ where: { runId } });
    expect(record).toMatchObject({ status: "expired", decidedByEmail: null });
    expect(await h.db.ledgerEntry.count({ where: { runId } }), "the rejected transfer did not run").toBe(0);
    const audit = await h.db.auditEvent.findFirstOrThrow({ where: { target: `${runId}/${record?.id}` } });
    expect(audit.action).toBe("approval.expired");
    expect(audit.actorId, "nobody decided").toBeNull();
    expect(JSON.parse(audit.details)).toMatchObject({ defaultAction: "rejected", reason: "expired", decidedBy: null });
    const mails = await eventually(async () => mailsAbout(record?.id ?? ""), (m) => m.length >= 2, 20_000, "the expiry email");
    expect(mails[1]?.text.split("\n")[0]).toMatch(/^Nobody decided by the deadline: rejected by the rule's default action at .* UTC\.$/);
  });
});
