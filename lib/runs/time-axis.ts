// The trace's time axis, pure so it is tested without a browser. Long waits are
// broken out of the axis so the work stays readable: an approval wait (and a
// timer) is a wait even while the tool call that asked for it is open — that
// call's span covers the whole wait, and counting it as work drew four minutes
// of waiting across the axis and the real work as slivers — and any other idle
// stretch over a threshold is cut too. Each break keeps a narrow strip of the
// width, and the axis says how long was cut ("⋯ 4 min waiting for approval").
import type { TraceSpanView } from "./schemas";
import { subRunIdOf } from "./timeline";
import { formatDuration } from "../format/figures";
import { textWidthPx } from "./bar-label";

/** A stretch of time in ms since the epoch; `end` is Infinity while it is open. */
export interface Stretch {
  start: number;
  end: number;
}

export type WaitReason = "approval" | "timer";
export type BreakReason = WaitReason | "idle";

/** What the axis is built from: when something worked, and when the run waited. Derived from the spans alone. */
export interface AxisWork {
  busy: Stretch[];
  waits: (Stretch & { reason: WaitReason })[];
}

export interface Gap extends Stretch {
  /** What the cut time was: mostly an approval wait, a timer, or nothing at all. */
  reason: BreakReason;
}

export interface TimeScale {
  start: number;
  end: number;
  gaps: Gap[];
  /** Maps a time (ms) to a fraction of the width, 0..1. */
  toFraction(t: number): number;
  /** The time (ms) at a fraction of the width: the inverse of toFraction (inside a break, proportionally). */
  fromFraction(f: number): number;
}

/** A wait broken out of the axis is at least this long and this share of the range. */
const WAIT_MIN_MS = 1000;
const WAIT_SHARE = 0.1;
/** An idle stretch (nothing running, not even a wait) is cut past this share of the range (and `minIdleMs`). */
const IDLE_SHARE = 0.15;
/** The width each break keeps. */
export const GAP_WIDTH = 0.03;

const WAIT_KINDS: Partial<Record<TraceSpanView["kind"], WaitReason>> = { approval_wait: "approval", timer: "timer" };
/** Spans that only hold others: their time is their children's. */
const CONTAINERS = new Set<TraceSpanView["kind"]>(["run", "iteration"]);

const keyOf = (runId: string, spanId: string) => `${runId}/${spanId}`;

/** `[a, b]` without the given stretches (sorted by start, may overlap). */
function subtract(from: Stretch, cuts: readonly Stretch[]): Stretch[] {
  const pieces: Stretch[] = [];
  let cursor = from.start;
  for (const cut of [...cuts].sort((a, b) => a.start - b.start)) {
    if (cut.end <= cursor) continue;
    if (cut.start >= from.end) break;
    if (cut.start > cursor) pieces.push({ start: cursor, end: cut.start });
    cursor = Math.max(cursor, cut.end);
  }
  if (cursor < from.end) pieces.push({ start: cursor, end: from.end });
  return pieces;
}

/**
 * When the spans worked and waited. A wait's time is taken out of every span
 * that holds it (its tool call, the sub-agent span of the run it is in), so a
 * call waiting for a decision is work only before and after the decision.
 */
export function axisWork(spans: readonly TraceSpanView[]): AxisWork {
  const waits: AxisWork["waits"] = [];
  for (const s of spans) {
    const reason = WAIT_KINDS[s.kind];
    if (reason) waits.push({ start: s.startMs, end: s.endMs ?? Infinity, reason });
  }
  const cutsOf = new Map<string, Stretch[]>();
  if (waits.length) {
    const byKey = new Map<string, TraceSpanView>();
    // A sub-run's top spans sit under the sub-agent span that opened the run.
    const openedBy = new Map<string, string>();
    for (const s of spans) {
      byKey.set(keyOf(s.runId, s.id), s);
      const child = subRunIdOf(s);
      if (child) openedBy.set(child, keyOf(s.runId, s.id));
    }
    const parentOf = (s: TraceSpanView) => (s.parentId ? keyOf(s.runId, s.parentId) : (openedBy.get(s.runId) ?? null));
    for (const s of spans) {
      if (!WAIT_KINDS[s.kind]) continue;
      const wait = { start: s.startMs, end: s.endMs ?? Infinity };
      const seen = new Set<string>();
      for (let parent = parentOf(s); parent && !seen.has(parent); ) {
        seen.add(parent);
        const list = cutsOf.get(parent);
        if (list) list.push(wait);
        else cutsOf.set(parent, [wait]);
        const p = byKey.get(parent);
        parent = p ? parentOf(p) : null;
      }
    }
  }
  const busy: Stretch[] = [];
  for (const s of spans) {
    if (CONTAINERS.has(s.kind) || WAIT_KINDS[s.kind]) continue;
    const whole = { start: s.startMs, end: s.endMs ?? Infinity };
    const cuts = cutsOf.get(keyOf(s.runId, s.id));
    if (cuts) busy.push(...subtract(whole, cuts));
    else busy.push(whole);
  }
  busy.sort((a, b) => a.start - b.start);
  return { busy, waits };
}

/** How much of `gap` the waits of one reason cover. */
function covered(gap: Stretch, waits: AxisWork["waits"], reason: WaitReason): number {
  const inside = waits.filter((w) => w.reason === reason).map((w) => ({ start: Math.max(gap.start, w.start), end: Math.min(gap.end, w.end) })).filter((w) => w.end > w.start);
  let total = 0;
  let cursor = -Infinity;
  for (const w of inside.sort((a, b) => a.start - b.start)) {
    const from = Math.max(cursor, w.start);
    if (w.end > from) total += w.end - from;
    cursor = Math.max(cursor, w.end);
  }
  return total;
}

/**
 * A time scale over [start, end] in which each stretch nothing worked in is
 * cut to `GAP_WIDTH` of the width: a wait (mostly an approval or a timer)
 * longer than a second and a tenth of the range, any other idle stretch longer
 * than `minIdleMs` and 15 % of it.
 */
export function scaleFromWork(work: AxisWork, start: number, end: number, minIdleMs = 5000): TimeScale {
  const range = Math.max(1, end - start);
  const gaps: Gap[] = [];
  const cut = (from: number, to: number) => {
    const gap = { start: from, end: to };
    const length = to - from;
    const reason: BreakReason = covered(gap, work.waits, "approval") * 2 >= length ? "approval" : covered(gap, work.waits, "timer") * 2 >= length ? "timer" : "idle";
    const min = reason === "idle" ? Math.max(minIdleMs, range * IDLE_SHARE) : Math.max(WAIT_MIN_MS, range * WAIT_SHARE);
    if (length > min) gaps.push({ ...gap, reason });
  };
  let cursor = start;
  let anyBusy = false;
  for (const b of work.busy) {
    if (b.end <= start || b.start >= end) continue;
    anyBusy = true;
    if (b.start > cursor) cut(cursor, b.start);
    cursor = Math.max(cursor, Math.min(end, b.end));
  }
  if (anyBusy && end > cursor) cut(cursor, end);
  if (!gaps.length) {
    return { start, end, gaps, toFraction: (t) => (Math.min(end, Math.max(start, t)) - start) / range, fromFraction: (f) => start + Math.min(1, Math.max(0, f)) * range };
  }
  const gapTime = gaps.reduce((sum, g) => sum + (g.end - g.start), 0);
  const busyShare = 1 - gaps.length * GAP_WIDTH;
  const busyTime = Math.max(1, range - gapTime);
  const toFraction = (t: number): number => {
    const clamped = Math.min(end, Math.max(start, t));
    let x = 0;
    let from = start;
    for (const g of gaps) {
      if (clamped <= g.start) break;
      x += ((g.start - from) / busyTime) * busyShare;
      if (clamped < g.end) return x + ((clamped - g.start) / (g.end - g.start)) * GAP_WIDTH;
      x += GAP_WIDTH;
      from = g.end;
    }
    return Math.min(1, x + ((clamped - from) / busyTime) * busyShare);
  };
  const fromFraction = (f: number): number => {
    const target = Math.min(1, Math.max(0, f));
    let x = 0;
    let from = start;
    for (const g of gaps) {
      const work = ((g.start - from) / busyTime) * busyShare;
      if (target <= x + work) return from + ((target - x) / busyShare) * busyTime;
      x += work;
      if (target <= x + GAP_WIDTH) return g.start + ((target - x) / GAP_WIDTH) * (g.end - g.start);
      x += GAP_WIDTH;
      from = g.end;
    }
    return Math.min(end, from + ((target - x) / busyShare) * busyTime);
  };
  return { start, end, gaps, toFraction, fromFraction };
}

/** The time scale of these spans over [start, end] (axisWork then scaleFromWork). */
export function timeScale(spans: readonly TraceSpanView[], start: number, end: number, minIdleMs = 5000): TimeScale {
  return scaleFromWork(axisWork(spans), start, end, minIdleMs);
}

const BREAK_WORDS: Record<BreakReason, string> = { approval: "waiting for approval", timer: "waiting on a timer", idle: "idle" };

/** What a break on the axis says: "⋯ 4 min waiting for approval". */
export function breakText(gap: Gap): string {
  return `⋯ ${formatDuration(gap.end - gap.start)} ${BREAK_WORDS[gap.reason]}`;
}

export interface AxisLabel {
  kind: "tick" | "break";
  /** Where it stands, as a fraction of the axis in view (0..1), and which of its sides stands there. */
  at: number;
  align: "start" | "center" | "end";
  text: string;
  /** The whole sentence (a break's short form keeps it as its title). */
  title: string;
}

/** Room between two labels, in px. */
const LABEL_GAP_PX = 8;
/** The axis gets one tick per this many px (at least the two ends, at most five). */
const TICK_EVERY_PX = 120;

/**
 * The axis's labels for a width in px: the two ends' ticks ("+0 ms", the end
 * of the range in view), each break in view (in full, or shortened to
 * "⋯ 4 min", or "⋯" where it has no room; centred on the break, or beginning or
 * ending there where that fits; an end's tick in the way of its words gives
 * way), then as many ticks between as fit
 * without touching another label. Ticks say elapsed time from the start, read
 * through the breaks (so they are real times, not fractions of the width).
 */
export function axisLabels(scale: TimeScale, zoom: readonly [number, number], widthPx: number): AxisLabel[] {
  const [z0, z1] = zoom;
  const width = Math.max(1, widthPx);
  const placed: { left: number; right: number }[] = [];
  const labels: AxisLabel[] = [];
  const box = (at: number, align: AxisLabel["align"], text: string) => {
    const w = textWidthPx(text);
    const x = at * width;
    const left = align === "start" ? x : align === "end" ? x - w : x - w / 2;
    return { left, right: left + w };
  };
  const clear = (b: { left: number; right: number }, others: readonly { left: number; right: number }[]) =>
    b.left >= 0 && b.right <= width && others.every((p) => b.right + LABEL_GAP_PX <= p.left || b.left >= p.right + LABEL_GAP_PX);
  const free = (b: { left: number; right: number }) => clear(b, placed);
  const tickText = (f: number) => `+${formatDuration(scale.fromFraction(z0 + f * (z1 - z0)) - scale.start)}`;
  const add = (label: AxisLabel) => {
    placed.push(box(label.at, label.align, label.text));
    labels.push(label);
  };
  const first = tickText(0);
  const last = tickText(1);
  add({ kind: "tick", at: 0, align: "start", text: first, title: first });
  if (box(1, "end", last).left > box(0, "start", first).right + LABEL_GAP_PX) add({ kind: "tick", at: 1, align: "end", text: last, title: last });
  for (const gap of scale.gaps) {
    const l = (scale.toFraction(gap.start) - z0) / (z1 - z0);
    const r = (scale.toFraction(gap.end) - z0) / (z1 - z0);
    if (r < 0 || l > 1) continue;
    const at = (Math.max(0, l) + Math.min(1, r)) / 2;
    const full = breakText(gap);
    // Centred on the break, else beginning or ending there (beside the ends' ticks); in words, else shorter.
    const aligns = ["center", "start", "end"] as const;
    const tries = [full, `⋯ ${formatDuration(gap.end - gap.start)}`].flatMap((text) => aligns.map((align) => ({ text, align })));
    let fit = tries.find((t) => free(box(at, t.align, t.text)));
    if (fit?.text !== full) {
      // The sentence says more than an end's elapsed time (the header has the run's length): where only an end's tick
      // is in its way — a wait near the start or the end of the run, on a narrow axis — that tick gives way.
      const ends = labels.flatMap((label, index) => (label.kind === "tick" && (label.at === 0 || label.at === 1) ? [index] : []));
      const others = placed.filter((_, index) => !ends.includes(index));
      const words = aligns.map((align) => ({ text: full, align })).find((t) => clear(box(at, t.align, t.text), others));
      if (words) {
        const inTheWay = ends.filter((index) => !clear(box(at, words.align, words.text), [placed[index]!]));
        for (const index of inTheWay.sort((a, b) => b - a)) {
          placed.splice(index, 1);
          labels.splice(index, 1);
        }
        fit = words;
      }
    }
    // With no room for words the glyph stays, its sentence in the title: a cut is never silent.
    add({ kind: "break", at, align: fit?.align ?? "center", text: fit?.text ?? "⋯", title: full });
  }
  const steps = Math.min(4, Math.max(1, Math.floor(width / TICK_EVERY_PX)));
  for (let i = 1; i < steps; i++) {
    const f = i / steps;
    const text = tickText(f);
    // A tick inside a break would say a time the axis does not draw evenly.
    const t = scale.fromFraction(z0 + f * (z1 - z0));
    if (scale.gaps.some((g) => t > g.start && t < g.end)) continue;
    if (free(box(f, "center", text))) add({ kind: "tick", at: f, align: "center", text, title: text });
  }
  // In reading order, left to right.
  return labels.sort((a, b) => a.at - b.at);
}

/** The range the axis spans: first start to last end, open spans to `clock` (0 for a finished trace: they do not stretch it). */
export function axisRange(spans: readonly TraceSpanView[], clock: number): { start: number; end: number } {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of spans) {
    if (s.startMs < lo) lo = s.startMs;
    const until = s.endMs ?? clock;
    if (until > hi) hi = until;
  }
  return Number.isFinite(lo) ? { start: lo, end: Math.max(hi, lo + 1) } : { start: 0, end: 1 };
}
