import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../contract/types";
import { appendUserMessage, callBytes, editMessage, fitToLimit, lastUserIndex, limitProblem, promptToSave, removeMessage, withSystemPrompt } from "./messages";
import { PLAYGROUND_MAX_BYTES, PLAYGROUND_MAX_MESSAGES, playgroundCallSchema } from "./schemas";

const conversation: ChatMessage[] = [
  { role: "system", content: "You manage the ledger." },
  { role: "user", content: "Move 5 to savings." },
  { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "ledger_transfer", arguments: "{}" } }] },
  { role: "tool", tool_call_id: "c1", name: "ledger_transfer", content: "ok" },
  { role: "user", content: "And now?" },
];

describe("message edits", () => {
  it("changes one message's text and keeps what is not text (tool calls, call ids), leaving the input untouched", () => {
    const edited = editMessage(conversation, 2, "Let me move it.");
    expect(edited[2]).toEqual({ role: "assistant", content: "Let me move it.", tool_calls: (conversation[2] as { tool_calls: unknown }).tool_calls });
    expect(editMessage(conversation, 3, "failed")[3]).toEqual({ role: "tool", tool_call_id: "c1", name: "ledger_transfer", content: "failed" });
    expect(conversation[2]).toMatchObject({ content: null });
    expect(editMessage(conversation, 99, "x"), "an index outside the list changes nothing").toEqual(conversation);
  });

  it("an assistant message emptied of text keeps its tool calls with null content", () => {
    expect(editMessage(conversation, 2, "")[2]).toMatchObject({ content: null });
  });

  it("finds the last user message, replaces or adds the system prompt, removes and appends messages", () => {
    expect(lastUserIndex(conversation)).toBe(4);
    expect(lastUserIndex([{ role: "system", content: "x" }])).toBe(-1);
    expect(withSystemPrompt(conversation, "Be terse.")[0]).toEqual({ role: "system", content: "Be terse." });
    expect(withSystemPrompt(conversation.slice(1), "Be terse.")).toHaveLength(conversation.length);
    expect(removeMessage(conversation, 4)).toHaveLength(4);
    expect(appendUserMessage(conversation, "Thanks").at(-1)).toEqual({ role: "user", content: "Thanks" });
  });
});

describe("the prompt a draft saves", () => {
  const template = "Serve {{context.customer}}.";
  it("keeps the template (its placeholders) when the rendered prompt was not edited", () => {
    expect(promptToSave("Serve Ada.", "Serve Ada.", template)).toBe(template);
  });
  it("saves the edited text, without the router instructions the engine appends", () => {
    const plain = "Route tasks.";
    const rendered = `${plain}\n\nYou route each task to one of these agents: …`;
    expect(promptToSave(`Route tasks carefully.\n\nYou route each task to one of these agents: …`, rendered, plain)).toBe("Route tasks carefully.");
    expect(promptToSave("Serve Ada politely.", "Serve Ada.", template)).toBe("Serve Ada politely.");
    expect(promptToSave("Anything", "Anything else", null)).toBe("Anything");
  });
});

describe("input limits", () => {
  const many = (n: number): ChatMessage[] => Array.from({ length: n }, (_, i) => ({ role: "user", content: `m${i}` }));

  it("takes 200 messages and refuses 201 with a 422 naming the limit", () => {
    expect(limitProblem(many(PLAYGROUND_MAX_MESSAGES), [])).toBeNull();
    expect(limitProblem(many(PLAYGROUND_MAX_MESSAGES + 1), [])).toEqual({ status: 422, message: "The call has 201 messages; the playground takes at most 200" });
    const parsed = playgroundCallSchema.safeParse({ model: "demo/assistant", temperature: 0, maxOutputTokens: 10, messages: many(201) });
    expect(parsed.success === false && parsed.error.issues[0]?.message).toBe("send at most 200 messages (the playground's limit)");
  });

  it("counts UTF-8 bytes of messages and tools: 1 MB passes, one byte more is a 413", () => {
    const overhead = callBytes([{ role: "user", content: "" }], []);
    const exact: ChatMessage[] = [{ role: "user", content: "x".repeat(PLAYGROUND_MAX_BYTES - overhead) }];
    expect(callBytes(exact, [])).toBe(PLAYGROUND_MAX_BYTES);
    expect(limitProblem(exact, [])).toBeNull();
    const over: ChatMessage[] = [{ role: "user", content: `${"x".repeat(PLAYGROUND_MAX_BYTES - overhead - 1)}é` }];
    expect(limitProblem(over, [])?.status, "é is two bytes").toBe(413);
    expect(limitProblem(over, [])?.message).toContain("at most 1,000,000");
    expect(limitProblem(exact, [{ name: "t", description: "", parameters: {} }])?.status, "tools count too").toBe(413);
  });

  it("cuts a long conversation to the system prompt and the newest messages, never starting on an orphaned tool result", () => {
    const long: ChatMessage[] = [{ role: "system", content: "s" }, ...many(150), ...conversation.slice(1), ...many(100)];
    const { messages, omitted } = fitToLimit(long);
    expect(messages.length).toBeLessThanOrEqual(PLAYGROUND_MAX_MESSAGES);
    expect(messages[0]).toEqual({ role: "system", content: "s" });
    expect(messages[1]?.role).not.toBe("tool");
    expect(omitted + messages.length).toBe(long.length);
    expect(messages.at(-1)).toEqual(long.at(-1));
    expect(fitToLimit(conversation)).toEqual({ messages: conversation, omitted: 0 });
  });

  it("refuses unknown keys and an unknown role (strict input)", () => {
    const base = { model: "demo/assistant", temperature: 0, maxOutputTokens: 10, messages: [{ role: "user", content: "hi" }] };
    expect(playgroundCallSchema.safeParse(base).success).toBe(true);
    expect(playgroundCallSchema.safeParse({ ...base, stream: true }).success).toBe(false);
    expect(playgroundCallSchema.safeParse({ ...base, messages: [{ role: "developer", content: "hi" }] }).success).toBe(false);
    expect(playgroundCallSchema.safeParse({ ...base, messages: [{ role: "user", content: "hi", extra: 1 }] }).success).toBe(false);
    expect(playgroundCallSchema.safeParse({ ...base, temperature: 3 }).success).toBe(false);
  });
});
