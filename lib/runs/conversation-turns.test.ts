import { describe, expect, it } from "vitest";
import type { ChatMessage, RunEvent } from "../contract/types";
import { handoffPrompt, repairPrompt, reroutePrompt } from "../contract/system-tools";
import { enginePurposeOf, handoffMarks, toTurns, type TurnItem } from "./conversation-turns";

const system = (content: string): ChatMessage => ({ role: "system", content });
const user = (content: string): ChatMessage => ({ role: "user", content });
const assistant = (content: string): ChatMessage => ({ role: "assistant", content });

const speakers = (items: TurnItem[]) => items.map((item) => (item.kind === "message" ? `${item.speaker}:${item.message.role}` : item.kind === "engine" ? `engine:${item.purpose}` : `handoff:${item.handoff.to}`));

describe("enginePurposeOf", () => {
  it("recognises the engine's prompts by their prefixes and leaves the user's words alone", () => {
    expect(enginePurposeOf(repairPrompt(["/total: must be number"], "{}", {}))).toBe("repair");
    expect(enginePurposeOf(handoffPrompt({ from: "front-desk", reason: "refund", context: "…", task: "Refund A-1" }))).toBe("handoff");
    expect(enginePurposeOf(reroutePrompt("billing", "tool failed", ["support"]))).toBe("reroute");
    expect(enginePurposeOf("Your output was great")).toBeNull();
    expect(enginePurposeOf("Please refund order A-1003")).toBeNull();
  });
});

describe("toTurns", () => {
  it("keeps a repair request inside the turn, as the engine's, not as a new user turn", () => {
    const turns = toTurns([system("typed"), user("Triage invoice 7"), assistant("not json"), user(repairPrompt(["must be object"], "not json", {})), assistant('{"ok":true}')], "invoice-triage");
    expect(turns).toHaveLength(1);
    expect(turns[0]?.user?.content).toBe("Triage invoice 7");
    expect(speakers(turns[0]?.items ?? [])).toEqual(["invoice-triage:assistant", "engine:repair", "invoice-triage:assistant"]);
  });

  it("puts the handoff's divider before the receiving agent's first shown message and names it on the answers after", () => {
    const messages: ChatMessage[] = [
      system("front desk"), // 0
      user("I want my money back"), // 1
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "handoff", arguments: '{"agent":"refund-specialist"}' } }] }, // 2
      { role: "tool", tool_call_id: "c1", name: "handoff", content: "handed off" }, // 3
      system("refund specialist"), // 4: the receiver's conversation starts here
      user(handoffPrompt({ from: "front-desk", reason: "refund request", context: "summary", task: "I want my money back" })), // 5
      assistant("Refunded."), // 6
    ];
    const turns = toTurns(messages, "front-desk", [{ from: "front-desk", to: "refund-specialist", reason: "refund request", messageIndex: 4 }]);
    expect(turns).toHaveLength(1);
    const items = turns[0]?.items ?? [];
    expect(speakers(items)).toEqual(["front-desk:assistant", "front-desk:tool", "handoff:refund-specialist", "engine:handoff", "refund-specialist:assistant"]);
    const divider = items[2];
    expect(divider?.kind === "handoff" && divider.index).toBe(5);
  });

  it("counts assistant messages across agents, so the k-th still matches the k-th model call", () => {
    const turns = toTurns([user("go"), assistant("a"), system("next"), user(handoffPrompt({ from: "a", reason: "r", context: "", task: "go" })), assistant("b"), user("thanks"), assistant("c")], "a", [
      { from: "a", to: "b", reason: "r", messageIndex: 2 },
    ]);
    const counted = turns.flatMap((t) => t.items).flatMap((item) => (item.kind === "message" ? [item.assistantIndex] : []));
    expect(counted).toEqual([0, 1, 2]);
    expect(turns).toHaveLength(2);
    expect(speakers(turns[1]?.items ?? [])).toEqual(["b:assistant"]);
  });

  it("with handoffs in the wrong order or the same event twice, each is placed once, in conversation order", () => {
    const at = "2026-01-01T00:00:00Z";
    const event = (seq: number, to: string, messageIndex: number): RunEvent => ({ seq, at, type: "handoff", from: "x", to, reason: "", depth: 1, context: "summary", messageIndex });
    expect(handoffMarks([event(9, "c", 8), event(4, "b", 3), event(4, "b", 3)]).map((m) => m.to)).toEqual(["b", "c"]);
  });

  it("a conversation that starts with the assistant opens a turn without a user message", () => {
    const turns = toTurns([assistant("hello")], "greeter");
    expect(turns).toEqual([{ user: null, items: [{ kind: "message", index: 0, message: assistant("hello"), speaker: "greeter", assistantIndex: 0 }] }]);
  });
});
