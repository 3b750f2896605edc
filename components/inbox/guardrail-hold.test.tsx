import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { guardrailHoldSentence } from "@/lib/contract/guardrail-approval";
import type { InboxItem } from "@/lib/inbox/schemas";
import { ApprovalCard } from "./pending-approval-card";
import { rowSummary } from "./row-summary";

const usage = { tokens: { inputTokens: 0, outputTokens: 0 }, cost: 0 };
const held: InboxItem = {
  id: "a1",
  runId: "r1",
  parentRunId: null,
  rootRunId: "r1",
  agentName: "treasurer",
  toolName: "ledger_transfer",
  toolCallId: "c1",
  arguments: { from_account: "operating", to_account: "refunds", amount: 150, memo: "card [redacted card]" },
  requestedAt: "2026-01-01T00:00:00.000Z",
  expiresAt: "2099-01-01T00:00:00.000Z",
  requiredRole: null,
  requiredApprovals: 1,
  endorsements: [],
  requestedBy: null,
  allowSelfApproval: true,
  onExpiry: "reject",
  status: "pending",
  decision: null,
  kind: "tool",
  guardrail: "large-transfers",
  guardrailVerdict: { check: "json_schema", reason: "The text does not match the schema (1 problem; the first: /amount must be <= 100)." },
  chain: [{ runId: "r1", agentName: "treasurer" }],
  precedingMessage: null,
  runUsage: usage,
  treeUsage: usage,
  toolSchema: null,
};

const card = (item: InboxItem) =>
  renderToStaticMarkup(
    createElement(QueryClientProvider, { client: new QueryClient() }, createElement(ApprovalCard, { item, canDecide: true, mode: "idle", onModeChange: () => undefined })),
  ).replace(/<!-- -->/g, "");

describe("a call a guardrail held", () => {
  it("is worded with the guardrail, its check and its verdict, and not at all for a call a rule gated", () => {
    expect(guardrailHoldSentence(held)).toBe("held by guardrail large-transfers (json_schema): The text does not match the schema (1 problem; the first: /amount must be <= 100).");
    // An approval asked before verdicts rode along still names its guardrail.
    expect(guardrailHoldSentence({ guardrail: "large-transfers" })).toBe("held by guardrail large-transfers");
    expect(guardrailHoldSentence({})).toBeNull();
  });

  it("says on its card which guardrail held it, above the arguments", () => {
    const html = card(held);
    expect(html).toContain('data-testid="approval-guardrail" data-guardrail="large-transfers"');
    expect(html).toContain("held by guardrail large-transfers (json_schema): The text does not match the schema");
    expect(html.indexOf("approval-guardrail"), "the rule reads before the arguments").toBeLessThan(html.indexOf("approval-arguments"));
  });

  it("shows no guardrail line on a call an approval rule gated", () => {
    const { guardrail: _name, guardrailVerdict: _verdict, ...gated } = held;
    expect(card(gated)).not.toContain("approval-guardrail");
    expect(card(gated)).not.toContain("held by guardrail");
  });

  it("names the guardrail first in the compact row's summary", () => {
    expect(rowSummary(held).summary).toBe('guardrail large-transfers · amount: 150 · from_account: operating · to_account: refunds · memo: card [redacted card]');
    const { guardrail: _name, ...gated } = held;
    expect(rowSummary(gated).summary).toBe("amount: 150 · from_account: operating · to_account: refunds · memo: card [redacted card]");
  });
});
