// The model call being written, tied to its span: the run page shows its text
// so far in that span's panel and row, and counts its tokens into the header
// until the ledger has the call. Pure and browser-safe.
import type { LiveCall } from "./stream-events";
import type { TraceSpanView } from "./schemas";

/**
 * Tokens in a text being written, estimated as about four characters a token
 * (the demo model's own count; a provider's differs a little). Shown as an
 * estimate ("≈"), and replaced by the call's recorded count once it is stored.
 */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}

/** The running model calls of a trace and the iterations they are in (read once per change of the spans, not per token). */
export interface OpenCalls {
  running: TraceSpanView[];
  /** The iteration number of each running call's iteration span, by `<runId>/<spanId>` of that span. */
  iterations: Map<string, unknown>;
}

export function openCalls(spans: readonly TraceSpanView[]): OpenCalls {
  const running = spans.filter((s) => s.kind === "inference" && s.status === "running");
  const parents = new Set(running.filter((s) => s.parentId !== null).map((s) => `${s.runId}/${s.parentId}`));
  const iterations = new Map<string, unknown>();
  if (parents.size) for (const s of spans) if (s.kind === "iteration" && parents.has(`${s.runId}/${s.id}`)) iterations.set(`${s.runId}/${s.id}`, s.attributes?.iteration);
  return { running, iterations };
}

/**
 * The open model-call span the live text belongs to: the running inference
 * span of its run under the iteration span of its iteration; with no
 * iteration to go by (a plan node's call), the run's one running call while
 * the text is still being written. Null once the ledger has closed the call
 * (its recorded tokens then count) or before its span is read.
 */
export function liveCallSpan(open: OpenCalls, call: LiveCall | null): TraceSpanView | null {
  if (!call) return null;
  const running = open.running.filter((s) => s.runId === call.runId);
  const iterationOf = (s: TraceSpanView) => (s.parentId === null ? undefined : open.iterations.get(`${s.runId}/${s.parentId}`));
  const byIteration = running.find((s) => iterationOf(s) === call.iteration);
  if (byIteration) return byIteration;
  const unplaced = running.filter((s) => iterationOf(s) === undefined);
  return !call.done && unplaced.length === 1 ? (unplaced[0] ?? null) : null;
}

/** What the page shows of a call being written: its text and estimated tokens, on which span. */
export interface LiveOutput {
  runId: string;
  spanId: string;
  text: string;
  tokens: number;
}

export function liveOutput(open: OpenCalls, call: LiveCall | null): LiveOutput | null {
  const span = liveCallSpan(open, call);
  return span && call ? { runId: span.runId, spanId: span.id, text: call.text, tokens: estimateTokens(call.text) } : null;
}
