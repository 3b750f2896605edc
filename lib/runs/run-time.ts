// A run's time, one number everywhere. A root run answers, then stays open for
// follow-ups (a durable timer, up to the graph's followUpWindowSeconds): its
// root span is open until that window closes, while the run's work ended with
// the answer. The header measured start → answer, the trace's root bar start →
// now (growing by the browser's clock): 280 ms beside 2.1 s. Both read the
// run's times from here: start → last answer (or failure, or cancellation),
// or → now while it works; the window after the answer is shown as a window
// ("open for follow-ups until 15:04"), off the run's time axis. A sub-run's
// span and the span details (the API) read the same times, so a sub-run that
// answered in 187 ms is never "running · 20 min" while it waits for its parent.
import type { TraceSpan } from "../contract/types";
import { formatDateTime } from "../format/figures";
import type { RunHeaderData, TraceSpanView } from "./schemas";

/** The run's start, and its end (null while it works), in ms since the epoch. */
export interface RunTimes {
  startMs: number;
  endMs: number | null;
}

export function runTimes(header: Pick<RunHeaderData, "startedAt" | "endedAt">): RunTimes {
  return { startMs: Date.parse(header.startedAt), endMs: header.endedAt ? Date.parse(header.endedAt) : null };
}

/** How long the run worked: to its end, or to `now` while it works (the header's Duration and the trace's root bar). */
export function runDurationMs(times: RunTimes, now: number): number {
  return (times.endMs ?? now) - times.startMs;
}

/** Whether a span is a root run's wait for a follow-up (not the sub-run's idle wait for its parent). */
export function isFollowUpWindow(span: Pick<TraceSpanView, "kind" | "attributes">): boolean {
  return span.kind === "timer" && span.attributes?.timer === "follow_up_window";
}

/** A follow-up window's deadline (ISO), from its span's attributes; null when it has none. */
export function followUpDeadline(attributes: TraceSpan["attributes"]): string | null {
  if (attributes?.timer !== "follow_up_window") return null;
  const deadline = attributes.deadline;
  return typeof deadline === "string" && !Number.isNaN(Date.parse(deadline)) ? deadline : null;
}

/** "open for follow-ups until Nov 29, 2026, 15:04:00": the deadline in the product's one date-time format. */
export function followUpWindowText(deadline: string): string {
  return `open for follow-ups until ${formatDateTime(deadline)}`;
}

/** A wait for the next message: a root run's follow-up window, or a sub-agent conversation's idle wait for its parent. */
export function isWaitForMessage(span: Pick<TraceSpanView, "kind" | "attributes">): boolean {
  return span.kind === "timer" && (span.attributes?.timer === "follow_up_window" || span.attributes?.timer === "sub_agent_idle");
}

/** A wait for the next message that opened after the run's last answer: it is not run time, and stays off the time axis. */
export function isAfterRun(span: Pick<TraceSpanView, "kind" | "attributes" | "startMs">, times: RunTimes): boolean {
  return times.endMs !== null && isWaitForMessage(span) && span.startMs >= times.endMs;
}

/** Whether a span is the run's own root span (the bar the run's duration is read from). */
const isRootRunSpan = (span: TraceSpanView, runId: string) => span.kind === "run" && span.parentId === null && span.runId === runId;

/**
 * The run's spans as the trace draws them: its root span spans the run's
 * times (so its bar and the header say one number), and ends, not "running",
 * once the run answered. The other spans are unchanged. The same array when
 * nothing changes (a 200,000-span trace is not copied for nothing).
 */
export function drawnSpans(spans: TraceSpanView[], runId: string, times: RunTimes): TraceSpanView[] {
  const at = spans.findIndex((s) => isRootRunSpan(s, runId));
  const root = spans[at];
  if (!root) return spans;
  const run = asRunSpan(root, times);
  if (run === root) return spans;
  const drawn = spans.slice();
  drawn[at] = run;
  return drawn;
}

/**
 * A run's own span as every page and the API show it: it spans the run's
 * times (start → last answer, failure or cancellation; open while it works)
 * and has ended, not "running", once the run answered, however long the run
 * then waits for a follow-up or its parent's next message. The same object
 * when it already does.
 */
export function asRunSpan<S extends Pick<TraceSpanView, "startMs" | "endMs" | "status">>(span: S, times: RunTimes): S {
  const status = times.endMs !== null && span.status === "running" ? "ok" : span.status;
  if (span.startMs === times.startMs && span.endMs === times.endMs && span.status === status) return span;
  return { ...span, startMs: times.startMs, endMs: times.endMs, status };
}

/** Whether a span is its run's own span (the run's bar): a `run` span without a parent. */
export function isOwnRunSpan(span: Pick<TraceSpanView, "kind" | "parentId">): boolean {
  return span.kind === "run" && span.parentId === null;
}

/**
 * A sub-run's spans as the trace draws them. A sub-agent conversation answers,
 * then waits for its parent's next message (an open idle timer); its run span
 * stays open meanwhile, and drawn to "now" it grew past the whole run (a 2.0 s
 * bar under a 1.4 s root). While such a wait is open, the run span ends where
 * the wait began. The same array when there is no open wait.
 */
export function drawnSubRunSpans(spans: TraceSpanView[]): TraceSpanView[] {
  let waitStart: number | null = null;
  for (const span of spans) if (span.endMs === null && isWaitForMessage(span)) waitStart = Math.max(waitStart ?? span.startMs, span.startMs);
  if (waitStart === null) return spans;
  const end = waitStart;
  return spans.map((span) => (span.kind === "run" && span.endMs === null ? { ...span, endMs: Math.max(end, span.startMs), status: span.status === "running" ? "ok" : span.status } : span));
}

/**
 * Whether a span stretches the trace's time axis: not the window after the
 * answer, and not any open wait for a message (a deadline, drawn from where it
 * began to the edge with its "until"; counted, it kept the axis growing with
 * the clock after the run had answered).
 */
export function onTimeAxis(span: Pick<TraceSpanView, "kind" | "attributes" | "startMs" | "endMs">, times: RunTimes | undefined): boolean {
  if (times && isAfterRun(span, times)) return false;
  return !(span.endMs === null && isWaitForMessage(span));
}
