import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { InboxItem } from "@/lib/inbox/schemas";
import { UndoQueue, type HeldDecision } from "./undo-queue";

const item = (id: string) => ({ id, runId: `run-${id}` }) as InboxItem;

describe("UndoQueue", () => {
  let sent: HeldDecision[];
  let queue: UndoQueue;
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    queue = new UndoQueue(5_000);
    queue.sendWith((entry) => sent.push(entry));
  });
  afterEach(() => vi.useRealTimers());

  it("sends a held decision only once its window is over", () => {
    queue.hold([item("a")], { approved: true });
    vi.advanceTimersByTime(4_999);
    expect(sent, "nothing is sent inside the window").toEqual([]);
    expect(queue.list()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sent.map((e) => e.items[0]?.id)).toEqual(["a"]);
    expect(queue.list(), "a sent decision is no longer held").toEqual([]);
  });

  it("undo takes back the latest decision, or the one named, and it is never sent", () => {
    const first = queue.hold([item("a")], { approved: true });
    queue.hold([item("b")], { approved: false, reason: "no" });
    expect(queue.undo()?.items[0]?.id, "no key: the latest").toBe("b");
    expect(queue.undo(first.key)?.items[0]?.id).toBe("a");
    expect(queue.undo(), "nothing left to undo").toBeUndefined();
    vi.advanceTimersByTime(60_000);
    expect(sent).toEqual([]);
  });

  it("cancelAll returns every held decision and sends none of them; the snapshot is stable between changes", () => {
    queue.hold([item("a")], { approved: true });
    const snapshot = queue.list();
    expect(queue.list(), "the same array until something changes").toBe(snapshot);
    queue.hold([item("b"), item("c")], { approved: true });
    expect(queue.cancelAll().map((e) => e.items.length)).toEqual([1, 2]);
    vi.advanceTimersByTime(60_000);
    expect(sent).toEqual([]);
    expect(queue.list()).toEqual([]);
  });
});
