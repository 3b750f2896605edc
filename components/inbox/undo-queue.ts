// Keyboard decisions wait a few seconds in the browser before they are sent,
// so a stray `a` or Ctrl+Enter can be taken back: until then the server has
// heard nothing. Pure timing and bookkeeping; the inbox renders and sends.
import type { InboxItem } from "@/lib/inbox/schemas";

/** How long a keyboard decision waits before it is sent. */
export const UNDO_WINDOW_MS = 5_000;

export interface Decision {
  approved: boolean;
  reason?: string;
  editedArguments?: Record<string, unknown>;
}

/** A decision held in the browser: nothing has been sent for it yet. */
export interface HeldDecision {
  key: number;
  items: InboxItem[];
  decision: Decision;
  /** Epoch ms at which it is sent unless undone. */
  sendAt: number;
}

interface Timers {
  set: (run: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
  now: () => number;
}

const BROWSER_TIMERS: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

/**
 * Held decisions, each with its own timer; `list()` is a stable snapshot for
 * useSyncExternalStore. A decision leaves the queue exactly once: sent when its
 * time is up, or returned by undo/cancelAll (then never sent).
 */
export class UndoQueue {
  private readonly held = new Map<number, { entry: HeldDecision; handle: unknown }>();
  private snapshot: HeldDecision[] = [];
  private readonly listeners = new Set<() => void>();
  private nextKey = 1;
  private send: (entry: HeldDecision) => void = () => {};

  constructor(
    private readonly windowMs = UNDO_WINDOW_MS,
    private readonly timers: Timers = BROWSER_TIMERS,
  ) {}

  /** Who sends a decision once its window is over (the page's latest handler). */
  readonly sendWith = (send: (entry: HeldDecision) => void) => {
    this.send = send;
  };

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  readonly list = (): HeldDecision[] => this.snapshot;

  /** Holds a decision; it is sent after the window unless undone first. */
  readonly hold = (items: InboxItem[], decision: Decision): HeldDecision => {
    const entry: HeldDecision = { key: this.nextKey++, items, decision, sendAt: this.timers.now() + this.windowMs };
    const handle = this.timers.set(() => {
      if (!this.held.delete(entry.key)) return;
      this.changed();
      this.send(entry);
    }, this.windowMs);
    this.held.set(entry.key, { entry, handle });
    this.changed();
    return entry;
  };

  /** Takes back one decision (the latest held when no key is given); returns it, or undefined when none was held. */
  readonly undo = (key?: number): HeldDecision | undefined => {
    const target = key ?? this.snapshot.at(-1)?.key;
    const found = target === undefined ? undefined : this.held.get(target);
    if (!found) return undefined;
    this.timers.clear(found.handle);
    this.held.delete(found.entry.key);
    this.changed();
    return found.entry;
  };

  /** Takes back every held decision (the page is going away); returns them. */
  readonly cancelAll = (): HeldDecision[] => {
    const all = [...this.held.values()];
    for (const { handle } of all) this.timers.clear(handle);
    this.held.clear();
    if (all.length) this.changed();
    return all.map((h) => h.entry);
  };

  private changed() {
    this.snapshot = [...this.held.values()].map((h) => h.entry);
    for (const listener of this.listeners) listener();
  }
}
