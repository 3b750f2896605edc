import { describe, expect, it } from "vitest";
import { buildHandoffContext, type HandoffContextInput } from "./handoff-context";
import type { ChatMessage } from "../../lib/contract/types";

const conversation: ChatMessage[] = [
  { role: "system", content: "You are the front desk." },
  { role: "user", content: "I want a refund for A-1003" },
  { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "lookup_order", arguments: '{"order_id":"A-1003"}' } }] },
  { role: "tool", tool_call_id: "c1", name: "lookup_order", content: '{"total": 349.99}' },
  { role: "assistant", content: "Let me pass you to refunds." },
];
const input = (mode: HandoffContextInput["mode"], extra: Partial<HandoffContextInput> = {}): HandoffContextInput => ({
  runId: "r",
  messageCount: conversation.length,
  conversationStart: 0,
  mode,
  recentMessages: 2,
  from: "front",
  ...extra,
});

describe("handoff context", () => {
  it("summarises what was asked, the tools used, results and answers, without the system prompt", () => {
    const text = buildHandoffContext(conversation, input("summary"));
    expect(text).toContain("- the user asked: I want a refund for A-1003");
    expect(text).toContain("- front used: lookup_order");
    expect(text).toContain('- result: lookup_order → {"total": 349.99}');
    expect(text).toContain("- front said: Let me pass you to refunds.");
    expect(text).not.toContain("You are the front desk.");
  });

  it("keeps the last N messages, or the full transcript, as text", () => {
    const recent = buildHandoffContext(conversation, input("recent"));
    expect(recent).toBe('The last 2 messages:\nlookup_order → {"total": 349.99}\nfront: Let me pass you to refunds.');
    const full = buildHandoffContext(conversation, input("full"));
    expect(full.split("\n")).toHaveLength(5);
    expect(full).toContain('front: [calls lookup_order({"order_id":"A-1003"})]');
  });

  it("starts at the sender's own conversation after an earlier handoff, and leaves out old lines past the cap", () => {
    expect(buildHandoffContext(conversation, input("full", { conversationStart: 4 }))).toBe("The conversation so far:\nfront: Let me pass you to refunds.");
    const many: ChatMessage[] = Array.from({ length: 400 }, (_, i) => ({ role: "user", content: `${i} ${"x".repeat(100)}` }));
    const capped = buildHandoffContext(many, input("full"));
    expect(capped.length).toBeLessThan(25_000);
    expect(capped).toMatch(/\(\d+ earlier lines left out\)/);
    expect(capped).toContain("399 ");
  });
});
