// Issue 36 §2: an edited step never counts as recorded for a scorer. A taped
// run's tool calls reach the scorers with where their result came from: a
// recording (replayed), a written tape entry (edited: a fork's edit or an
// imported item entry marked so), or the tool itself (live).
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../contract/types";
import { observedToolCall } from "./observe-run";

type Started = Extract<RunEvent, { type: "tool_call_started" }>;
type Completed = Extract<RunEvent, { type: "tool_call_completed" }>;

const started = (callId: string): Started => ({ type: "tool_call_started", seq: 1, at: "2026-11-29T08:00:00.000Z", iteration: 1, callId, tool: "calculator", arguments: '{"expression":"6*7"}' });
const completed = (callId: string, extra: Partial<Completed>): Completed => ({ type: "tool_call_completed", seq: 2, at: "2026-11-29T08:00:01.000Z", iteration: 1, callId, tool: "calculator", outcome: "ok", durationMs: 1, attempts: 1, result: "42", ...extra });
const mark = { by: "builder@zap.local", at: "2026-11-29T07:59:00.000Z" };

describe("observed tool calls", () => {
  it("tells a recorded result from a written one and a live one, so a recorded-only metric leaves the edited step out", () => {
    const calls = [
      observedToolCall(started("c1"), completed("c1", { replayed: true })),
      observedToolCall(started("c2"), completed("c2", { result: "43", edited: mark })),
      // An event claiming both (never written by this engine) is still an edit, not a recording.
      observedToolCall(started("c3"), completed("c3", { replayed: true, edited: mark })),
      observedToolCall(started("c4"), completed("c4", {})),
    ];
    expect(calls.map((c) => [c.replayed, c.edited])).toEqual([
      [true, false],
      [false, true],
      [false, true],
      [false, false],
    ]);
    expect(calls[0]).toEqual({ tool: "calculator", arguments: { expression: "6*7" }, outcome: "ok", replayed: true, edited: false });
    const recorded = calls.filter((c) => c.replayed);
    expect(recorded, "only the call answered from a recording counts as recorded").toHaveLength(1);
  });
});
