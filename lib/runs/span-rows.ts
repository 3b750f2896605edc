// Spans as the trace view holds them (TraceSpanView), and the wire format of
// GET /api/runs/:runId/spans: a page of spans as rows rather than objects (a
// 200,000-span trace is a third smaller without a key name per field), with
// the price book the rows' model calls are costed from (each at its start). The database writes
// the rows (lib/run-ledger/read.ts); the browser turns them into views here.
import type { TraceSpan } from "../contract/types";
import { costAt, type PriceBook } from "./pricing";
import type { TraceSpanView } from "./schemas";

type SpanExtra = Pick<TraceSpan, "tokens" | "attempts" | "attributes">;

/** `[id, parentId, kind, name, status, startMs, endMs, {tokens, attempts, attributes}]`, times in ms since the epoch. */
export type SpanRow = [string, string | null, TraceSpan["kind"], string, TraceSpan["status"], number, number | null, SpanExtra];

export interface SpanRowPage {
  runId: string;
  /** The run's start and end (null while it works): its own span is drawn from them (lib/runs/run-time.ts). */
  run?: { startedAt: string; endedAt: string | null };
  rows: SpanRow[];
  /** Ask for this offset next; null on the last page. */
  nextOffset: number | null;
  /** How many spans the run has: the later pages can be asked for at once. */
  total: number;
  prices: PriceBook;
}

/** A ledger span as the trace view holds it: times in ms, its run, the cost of a model call (null when the model has no price). */
export function toSpanView(runId: string, span: TraceSpan, prices: PriceBook): TraceSpanView {
  const { startedAt, endedAt, ...fields } = span;
  return viewOf(runId, fields, Date.parse(startedAt), endedAt === null ? null : Date.parse(endedAt), prices);
}

/** The spans of a page. */
export function spansFromRows(page: SpanRowPage): TraceSpanView[] {
  const spans = new Array<TraceSpanView>(page.rows.length);
  for (let i = 0; i < page.rows.length; i++) {
    const [id, parentId, kind, name, status, startMs, endMs, extra] = page.rows[i] as SpanRow;
    spans[i] = viewOf(page.runId, { id, parentId, kind, name, status, ...extra }, startMs, endMs, page.prices);
  }
  return spans;
}

function viewOf(runId: string, span: Omit<TraceSpan, "startedAt" | "endedAt">, startMs: number, endMs: number | null, prices: PriceBook): TraceSpanView {
  const view: TraceSpanView = { id: span.id, parentId: span.parentId, kind: span.kind, name: span.name, status: span.status, runId, startMs, endMs };
  if (span.tokens) {
    view.tokens = span.tokens;
    if (span.kind === "inference") view.cost = costAt(prices, span.name, span.tokens, startMs);
    // A judge guardrail's model call: priced at its model (the span is named after the guardrail).
    else if (span.kind === "guardrail" && typeof span.attributes?.model === "string") view.cost = costAt(prices, span.attributes.model, span.tokens, startMs);
  }
  if (span.attempts !== undefined) view.attempts = span.attempts;
  if (span.attributes) view.attributes = span.attributes;
  return view;
}
