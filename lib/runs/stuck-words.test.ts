// "Stuck or burning" in words: a run quiet because a call waits for an approver
// is said to wait for one, not to have made no progress; the description
// states the thresholds in use; the inbox link names the call.
import { describe, expect, it } from "vitest";
import { inboxHref, quietReason, stuckDescription } from "./stuck-words";

describe("stuck words", () => {
  it("tells an approver's wait from no progress", () => {
    expect(quietReason(12 * 60_000 + 5_000, true)).toBe("waiting for an approver for 12 min");
    expect(quietReason(12 * 60_000, false)).toBe("no progress for 12 min");
    expect(quietReason(3 * 60 * 60_000, false)).toBe("no progress for 3 h");
  });

  it("describes the view with the thresholds it is read with", () => {
    expect(stuckDescription({})).toContain("no progress for 10 min");
    expect(stuckDescription({})).toContain("$0.50 a minute");
    expect(stuckDescription({ stuckMinutes: 45, burnPerMinute: 2 })).toContain("no progress for 45 min");
    expect(stuckDescription({ stuckMinutes: 45, burnPerMinute: 2 })).toContain("$2.00 a minute");
  });

  it("links to the waiting call in the inbox", () => {
    expect(inboxHref("appr/1 2")).toBe("/inbox?approval=appr%2F1%202");
  });
});
