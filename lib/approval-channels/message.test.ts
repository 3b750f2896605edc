// What an approval email says: the run's identity, the call, bounded and
// escaped arguments, the gating rule in words, and links that only open the
// confirmation page; the follow-up names who decided and when, or the
// deadline's default action.
import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../contract/types";
import { ARGUMENTS_SHOWN_MAX_CHARS, approvalLink, decisionEmail, requestEmail, ruleWords, shownArguments } from "./message";
import { slackRequestMessage } from "./slack-message";

const approval: ApprovalRequest = {
  id: "ap-1",
  runId: "run-child",
  parentRunId: "run-root",
  rootRunId: "run-root",
  agentName: "payer",
  toolName: "ledger_transfer",
  toolCallId: "call-1",
  arguments: { amount: 5, memo: "<script>alert(1)</script>" },
  requestedAt: "2026-11-29T10:00:00.000Z",
  expiresAt: "2026-11-29T11:00:00.000Z",
  requiredRole: "approver",
  requiredApprovals: 1,
  endorsements: [],
  requestedBy: "builder@zap.local",
  allowSelfApproval: false,
  onExpiry: "reject",
  status: "pending",
  decision: null,
};

describe("requestEmail", () => {
  const mail = requestEmail(approval, "https://zap.example");

  it("names the run, the agent, the tool, the starter and the rule", () => {
    expect(mail.subject).toBe("Approval needed: ledger_transfer (agent payer, run run-root)");
    expect(mail.text).toContain("Run: run-child (in run run-root)");
    expect(mail.text).toContain("Agent: payer");
    expect(mail.text).toContain("Started by: builder@zap.local");
    expect(mail.text).toContain("Rule: needs one person with the approver role; not the run's own starter, author or sender; at 2026-11-29 11:00:00 UTC it is rejected by default");
  });

  it("says which guardrail held a call and why, and nothing of the kind for a call a rule gated", () => {
    const held = requestEmail({ ...approval, guardrail: "large-transfers", guardrailVerdict: { check: "json_schema", reason: "The text does not match the schema (1 problem; the first: /amount must be <= 100)." } }, "https://zap.example");
    expect(held.text).toContain("Guardrail: held by guardrail large-transfers (json_schema): The text does not match the schema (1 problem; the first: /amount must be <= 100).");
    expect(held.html).toContain("held by guardrail large-transfers (json_schema): The text does not match the schema (1 problem; the first: /amount must be &lt;= 100).");
    expect(mail.text).not.toContain("Guardrail:");
  });

  it("says in Slack too which guardrail held a call, escaped, and nothing of the kind for a call a rule gated", () => {
    const held = slackRequestMessage({ ...approval, guardrail: "large-transfers", guardrailVerdict: { check: "json_schema", reason: "The text does not match the schema (/amount must be <= 100)." } }, "https://zap.example");
    const texts = JSON.stringify(held.blocks);
    expect(texts).toContain("*Guardrail*\\nheld by guardrail large-transfers (json_schema): The text does not match the schema (/amount must be &lt;= 100).");
    expect(JSON.stringify(slackRequestMessage(approval, "https://zap.example").blocks)).not.toContain("Guardrail");
  });

  it("links to the confirmation page, which decides nothing by itself", () => {
    expect(mail.text).toContain("Approve: https://zap.example/approvals/ap-1?decision=approve");
    expect(mail.text).toContain("Reject: https://zap.example/approvals/ap-1?decision=reject");
    expect(mail.text).toContain("Opening a link decides nothing");
    expect(mail.html).toContain('href="https://zap.example/approvals/ap-1?decision=approve"');
  });

  it("escapes what the model wrote in the HTML part", () => {
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(mail.text).toContain('"memo": "<script>alert(1)</script>"');
  });

  it("keeps a tool name from an MCP server on one header line", () => {
    const bad = requestEmail({ ...approval, toolName: "x\r\nBcc: victim@example.com" }, "https://zap.example");
    expect(bad.subject).not.toMatch(/[\r\n]/);
  });
});

describe("shownArguments", () => {
  it("bounds large arguments and says how much was left out", () => {
    const shown = shownArguments({ blob: "a".repeat(10_000) });
    expect(shown.length).toBeLessThan(ARGUMENTS_SHOWN_MAX_CHARS + 100);
    expect(shown).toMatch(/… \(\d+ more characters on the approval page\)$/);
  });

  it("shows small arguments whole", () => {
    expect(shownArguments({ amount: 5 })).toBe('{\n  "amount": 5\n}');
  });
});

describe("ruleWords and links", () => {
  it("words several approvers and an approving deadline", () => {
    expect(ruleWords({ ...approval, requiredApprovals: 2, requiredRole: null, allowSelfApproval: true, onExpiry: "approve" })).toBe(
      "needs 2 different people with an approver; at 2026-11-29 11:00:00 UTC it is approved by default",
    );
  });

  it("encodes the id in the page's path", () => {
    expect(approvalLink("https://zap.example/base", "a/b")).toBe("https://zap.example/approvals/a%2Fb");
  });
});

describe("decisionEmail", () => {
  it("says who decided and when", () => {
    const decided = { ...approval, status: "approved" as const, decision: { approved: true, decidedBy: { id: "u2", email: "approver@zap.local", role: "approver" }, decidedAt: "2026-11-29T10:05:00.000Z" } };
    const mail = decisionEmail({ event: "approval.approved", approval: decided, at: "2026-11-29T10:05:01.000Z" }, "https://zap.example");
    expect(mail.text.split("\n")[0]).toBe("Approved by approver@zap.local at 2026-11-29 10:05:00 UTC.");
    expect(mail.subject).toContain("Approved by approver@zap.local");
  });

  it("says an expiry applied the rule's default action", () => {
    const mail = decisionEmail({ event: "approval.expired", approval: { ...approval, status: "expired" }, at: "2026-11-29T11:00:00.000Z" }, "https://zap.example");
    expect(mail.text.split("\n")[0]).toBe("Nobody decided by the deadline: rejected by the rule's default action at 2026-11-29 11:00:00 UTC.");
  });
});
