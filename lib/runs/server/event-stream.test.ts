// The pieces of a live run stream that need no database: token frames that never
// repeat text (a reconnect starts a call's text again at offset 0, a retried
// call too) and the phrase each event carries.
import { describe, expect, it } from "vitest";
import { sseFrame, TokenCursor } from "./event-stream";
import type { TokenRow } from "../token-store";

const row = (text: string, extra: Partial<TokenRow> = {}): TokenRow => ({ runId: "r", iteration: 1, attempt: 1, agentName: "main", text, done: false, updatedAt: new Date(), ...extra });

describe("TokenCursor", () => {
  it("sends only the text past what it sent, then the end of the call once", () => {
    const cursor = new TokenCursor();
    expect(cursor.frameFor(row("Hello"))).toMatchObject({ offset: 0, delta: "Hello", done: false });
    expect(cursor.frameFor(row("Hello"))).toBeNull();
    expect(cursor.frameFor(row("Hello, world"))).toMatchObject({ offset: 5, delta: ", world" });
    expect(cursor.frameFor(row("Hello, world", { done: true }))).toMatchObject({ offset: 12, delta: "", done: true });
    expect(cursor.frameFor(row("Hello, world", { done: true }))).toBeNull();
  });

  it("starts the text again at offset 0 when the call is retried", () => {
    const cursor = new TokenCursor();
    cursor.frameFor(row("First try"));
    expect(cursor.frameFor(row("Sec", { attempt: 2 }))).toMatchObject({ offset: 0, delta: "Sec", attempt: 2 });
  });

  it("keeps calls apart by iteration", () => {
    const cursor = new TokenCursor();
    cursor.frameFor(row("one"));
    expect(cursor.frameFor(row("two", { iteration: 2 }))).toMatchObject({ iteration: 2, offset: 0, delta: "two" });
  });
});

describe("sseFrame", () => {
  it("names the event, uses its seq as id, and adds a phrase", () => {
    const frame = sseFrame({ type: "tool_call_started", seq: 7, at: "2026-01-01T00:00:00.000Z", iteration: 1, callId: "c1", tool: "lookup_order", arguments: '{"order_id": 4417}' });
    expect(frame.startsWith("id: 7\nevent: tool_call_started\ndata: ")).toBe(true);
    expect(JSON.parse(frame.split("data: ")[1] ?? "{}")).toMatchObject({ phrase: "Calling lookup_order with order_id 4417…" });
  });
});
