import { describe, expect, it } from "vitest";
import { inboxKeyAction, isSubmitChord } from "./use-inbox-keys";

const ids = ["bo", "alex", "carol"];

describe("inbox keys", () => {
  it("decides nothing before the user moved to a card", () => {
    for (const key of ["a", "r", "e", "x"]) expect(inboxKeyAction(key, ids, null)).toEqual({ kind: "no-focus" });
  });

  it("j moves to the first card, then on; k moves back; both stop at the ends", () => {
    expect(inboxKeyAction("j", ids, null)).toEqual({ kind: "move", id: "bo" });
    expect(inboxKeyAction("j", ids, "bo")).toEqual({ kind: "move", id: "alex" });
    expect(inboxKeyAction("j", ids, "carol")).toEqual({ kind: "move", id: "carol" });
    expect(inboxKeyAction("k", ids, "alex")).toEqual({ kind: "move", id: "bo" });
    expect(inboxKeyAction("k", ids, "bo")).toEqual({ kind: "move", id: "bo" });
    expect(inboxKeyAction("j", [], null)).toBeNull();
  });

  it("acts on the focused card only", () => {
    expect(inboxKeyAction("a", ids, "alex")).toEqual({ kind: "decide", action: "approve", id: "alex" });
    expect(inboxKeyAction("r", ids, "carol")).toEqual({ kind: "decide", action: "reject", id: "carol" });
    expect(inboxKeyAction("x", ids, "bo")).toEqual({ kind: "decide", action: "toggle", id: "bo" });
  });

  it("u undoes with or without a card, and the submit chord is Ctrl or Cmd with Enter only", () => {
    expect(inboxKeyAction("u", ids, null)).toEqual({ kind: "undo" });
    expect(inboxKeyAction("u", ids, "bo")).toEqual({ kind: "undo" });
    expect(isSubmitChord({ key: "Enter", ctrlKey: true, metaKey: false })).toBe(true);
    expect(isSubmitChord({ key: "Enter", ctrlKey: false, metaKey: true })).toBe(true);
    expect(isSubmitChord({ key: "Enter", ctrlKey: false, metaKey: false }), "plain Enter is a newline").toBe(false);
    expect(isSubmitChord({ key: "a", ctrlKey: true, metaKey: false })).toBe(false);
  });

  it("a card that left the inbox passes its focus to no one", () => {
    expect(inboxKeyAction("a", ["alex", "carol"], "bo")).toEqual({ kind: "no-focus" });
    expect(inboxKeyAction("q", ids, "bo")).toBeNull();
  });
});
