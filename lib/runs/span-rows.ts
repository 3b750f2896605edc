// Spans as the trace view holds them (TraceSpanView), and the wire format of
// GET /api/runs/:runId/spans: a page of spans as rows rather than objects (a
// 200,000-span trace is a third smaller without a key name per field), with
// the price table the rows' model calls are costed from. The database writes
// the rows (lib/engine/ledger/read.ts); the browser turns them into views here.
import type { TraceSpan } from "../engine/types";
import { costOf, type PriceTable } from "./pricing";
import type { TraceSpanView } from "./schemas";

type SpanExtra = Pick<TraceSpan, "tokens" | "attempts" | "attributes">;

/** `[id, parentId, kind, name, status, startedAt, endedAt, {tokens, attempts, attributes}]` */
export type SpanRow = [string, string | null, TraceSpan["kind"], string, TraceSpan["status"], string, string | null, SpanExtra];

export interface SpanRowPage {
  runId: string;
  rows: SpanRow[];
  /** Ask for this offset next; null on the last page. */
  nextOffset: number | null;
  /** How many spans the run has: the later pages can be asked for at once. */
  total: number;
  prices: PriceTable;
}

/**
 * A ledger span as the trace view holds it: its run, the cost of a model call
 * (null when the model has no price), and its times parsed once — the timeline
 * re-derives its scale from every span's times, 200,000 of them on a big trace.
 */
export function toSpanView(runId: string, span: TraceSpan, prices: PriceTable): TraceSpanView {
  const view: TraceSpanView = {
    id: span.id,
    parentId: span.parentId,
    kind: span.kind,
    name: span.name,
    status: span.status,
    startedAt: span.startedAt,
    endedAt: span.endedAt,
    runId,
    startMs: Date.parse(span.startedAt),
    endMs: span.endedAt === null ? null : Date.parse(span.endedAt),
  };
  if (span.tokens) {
    view.tokens = span.tokens;
    if (span.kind === "inference") view.cost = costOf(span.name, span.tokens, prices);
  }
  if (span.attempts !== undefined) view.attempts = span.attempts;
  if (span.attributes) view.attributes = span.attributes;
  return view;
}

/** The spans of a page. */
export function spansFromRows(page: SpanRowPage): TraceSpanView[] {
  const spans = new Array<TraceSpanView>(page.rows.length);
  for (let i = 0; i < page.rows.length; i++) {
    const [id, parentId, kind, name, status, startedAt, endedAt, extra] = page.rows[i] as SpanRow;
    spans[i] = toSpanView(page.runId, { id, parentId, kind, name, status, startedAt, endedAt, ...extra }, page.prices);
  }
  return spans;
}
