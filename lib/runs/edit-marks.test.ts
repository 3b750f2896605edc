import { describe, expect, it } from "vitest";
import { conversationEdits, editTitle, NO_EDITS, spanEditMark } from "./edit-marks";
import type { TraceSpanView } from "./schemas";

type Span = Pick<TraceSpanView, "kind" | "status" | "attributes">;
const edited = { edited: true, editedBy: "builder@zap.local", editedAt: "2026-11-29T08:00:00.000Z" };

describe("edit marks of a fork's written steps", () => {
  it("reads who wrote a span's step and when, and nothing from a recorded or replayed span", () => {
    expect(spanEditMark(edited)).toEqual({ by: "builder@zap.local", at: "2026-11-29T08:00:00.000Z" });
    expect(spanEditMark({ edited: true })).toEqual({ by: "unknown", at: "unknown time" });
    expect(spanEditMark({ replayed: true })).toBeNull();
    expect(spanEditMark(undefined)).toBeNull();
    expect(editTitle({ by: "b@zap.local", at: "T" })).toBe("Edited by b@zap.local at T: not a recording");
  });

  it("keys the conversation's edited answers by model call and its edited results by call id", () => {
    const spans: Span[] = [
      { kind: "iteration", status: "ok" },
      { kind: "inference", status: "ok", attributes: { replayed: true } },
      { kind: "tool", status: "ok", attributes: { callId: "c1", ...edited } },
      { kind: "tool", status: "ok", attributes: { callId: "c2" } },
      // A failed attempt wrote no message: it does not count as an answer.
      { kind: "inference", status: "error" },
      { kind: "inference", status: "ok", attributes: edited },
    ];
    const edits = conversationEdits(spans);
    expect([...edits.assistant.keys()], "the second answer is the edited one").toEqual([1]);
    expect([...edits.toolResults.keys()]).toEqual(["c1"]);
    expect(edits.toolResults.get("c1")?.by).toBe("builder@zap.local");
    expect([...edits.replayedAnswers], "the first answer was reused from the recording").toEqual([0]);
    expect(edits.replayedResults.size).toBe(0);
    expect(conversationEdits(spans.filter((s) => !s.attributes?.edited && !s.attributes?.replayed))).toBe(NO_EDITS);
  });

  it("never marks an edited step replayed, even when its span says both", () => {
    const edits = conversationEdits([
      { kind: "inference", status: "ok", attributes: { replayed: true, ...edited } },
      { kind: "tool", status: "ok", attributes: { callId: "c1", replayed: true, ...edited } },
      { kind: "tool", status: "ok", attributes: { callId: "c2", replayed: true } },
    ]);
    expect([...edits.assistant.keys()]).toEqual([0]);
    expect(edits.replayedAnswers.size).toBe(0);
    expect([...edits.toolResults.keys()]).toEqual(["c1"]);
    expect([...edits.replayedResults]).toEqual(["c2"]);
  });
});
