// A step's duration, the one definition every figure of it uses (issue 37 §1):
// the trace's bar and label, the span details, the compare page, the
// dashboard's latency series and the API's events. A step is a span of the
// ledger (a model call, a tool call, a sub-agent turn, a wait…); it lasts from
// its span's start to its end as the run recorded them. The model call's own
// clock inside the activity (what the provider took) is shorter by the time the
// call waited to be scheduled and its ledger write: it was once shown beside
// the span ("24 ms" in the trace, "4 ms" on the compare page) and is now kept
// apart as `modelMs` on the event. A run's own span lasts as long as the run
// worked (lib/runs/run-time.ts): start → last answer, not the wait after it.
// Here, in the contract, because the workflow emits the events with it (and
// workflow code loads only what its bundle is built from).

/**
 * How long a step took in ms: its span's end − start, or to `now` while it runs. Null when there is no
 * figure: still running and no clock given, or a clock behind the start (a page's clock before it knows the time).
 */
export function stepDurationMs(span: { startMs: number; endMs: number | null }, now?: number): number | null {
  const end = span.endMs ?? now;
  if (end === undefined || !Number.isFinite(end) || !Number.isFinite(span.startMs) || end < span.startMs) return null;
  return end - span.startMs;
}

/** The same from a ledger span's ISO times (the worker emits a step's event with its span's duration). */
export function spanDurationMs(span: { startedAt: string; endedAt: string | null }, now?: number): number | null {
  return stepDurationMs({ startMs: Date.parse(span.startedAt), endMs: span.endedAt === null ? null : Date.parse(span.endedAt) }, now);
}
