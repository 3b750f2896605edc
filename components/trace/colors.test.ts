import { describe, expect, it } from "vitest";
import { waitNote } from "./colors";

describe("waitNote", () => {
  it("says how a finished wait ended", () => {
    expect(waitNote({ kind: "timer", endMs: Date.parse("2026-01-01T00:01:00Z"), attributes: { ended: "fired" } })).toBe("timer fired");
    expect(waitNote({ kind: "timer", endMs: Date.parse("2026-01-01T00:01:00Z"), attributes: { ended: "message" } })).toBe("ended by a message");
    expect(waitNote({ kind: "approval_wait", endMs: Date.parse("2026-01-01T00:01:00Z"), attributes: { ended: "decision" } })).toBe("ended by the decision");
  });

  it("names the deadline of a running wait, and nothing for other spans", () => {
    expect(waitNote({ kind: "timer", endMs: null, attributes: { deadline: "2026-01-01T00:01:00Z" } })).toMatch(/^until /);
    expect(waitNote({ kind: "timer", endMs: null, attributes: { deadline: "soon" } })).toBeNull();
    expect(waitNote({ kind: "tool", endMs: null, attributes: { ended: "fired" } })).toBeNull();
  });
});
