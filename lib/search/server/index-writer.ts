// Keeps the search index current as the ledger is written: called by the
// deriver (lib/run-ledger/deriver.ts) with only the rows ledger transactions
// inserted, each once, so a replayed batch indexes nothing twice and every
// inserted text is indexed a moment after its ledger row is written. The full-text index
// itself (FTS5 on SQLite, GIN on PostgreSQL) follows search_documents by
// trigger or expression index (the migration's hand-written SQL).
// No `import "server-only"` here: the worker writes the ledger, under plain Node,
// where that package throws.
import type { DbTransaction } from "../../db/transactions";
import type { ChatMessage, RunEvent, TraceSpan } from "../../contract/types";
import type { SearchSource } from "../schemas";

/** What one ledger transaction inserted for one run (lib/run-ledger/derived.ts's InsertedLedgerRows, the fields read here). */
export interface IndexableRows {
  run: { runId: string; rootRunId: string };
  events: RunEvent[];
  messages: { index: number; message: ChatMessage }[];
  /** The spans the batch wrote: which span a text belongs to is all the index reads of them. */
  spans: IndexedSpan[];
  /** When the batch was written (its last event's time): an answer is indexed at it (default: its last event here). */
  at?: string;
}

/** What the index reads of a span. */
export type IndexedSpan = Pick<TraceSpan, "id" | "kind"> & { attributes?: TraceSpan["attributes"] };

/** Longer texts are cut: a snippet needs the words, not a 1 MB tool result. */
export const INDEXED_TEXT_MAX_CHARS = 4_000;

export interface SearchDocumentRow {
  runId: string;
  rootRunId: string;
  seq: number;
  source: SearchSource;
  spanId: string | null;
  text: string;
  at: Date;
}

export interface FacetRow {
  rootRunId: string;
  kind: "tool" | "model" | "retried";
  value: string;
  at: Date;
}

/** The span a tool call's event belongs to: the tool span the same batch opened or closed for its call id. */
function toolSpanOf(spans: IndexedSpan[], callId: string | undefined): string | null {
  if (!callId) return null;
  return spans.find((s) => s.kind === "tool" && s.attributes?.callId === callId)?.id ?? null;
}

/** The documents and facets one run's inserted rows add to the index. */
export function documentsOf(rows: IndexableRows): { documents: SearchDocumentRow[]; facets: FacetRow[] } {
  const { runId, rootRunId } = rows.run;
  const documents: SearchDocumentRow[] = [];
  const facets: FacetRow[] = [];
  const runSpan = rows.spans.find((s) => s.kind === "run")?.id ?? null;
  const add = (source: SearchSource, seq: number, text: string, spanId: string | null, at: string) => {
    const trimmed = text.trim();
    if (trimmed) documents.push({ runId, rootRunId, seq, source, spanId, text: trimmed.slice(0, INDEXED_TEXT_MAX_CHARS), at: new Date(at) });
  };
  const facet = (kind: FacetRow["kind"], value: string, at: string) => facets.push({ rootRunId, kind, value: value.slice(0, 200), at: new Date(at) });
  for (const event of rows.events) {
    switch (event.type) {
      case "run_started":
        add("task", event.seq, event.task, runSpan, event.at);
        break;
      case "user_message":
        add("message", event.seq, event.content, runSpan, event.at);
        break;
      case "tool_call_started":
        // The tool's name is searchable with its arguments ("lookup_order 4417").
        add("tool_arguments", event.seq, `${event.tool} ${event.arguments}`, toolSpanOf(rows.spans, event.callId), event.at);
        facet("tool", event.tool, event.at);
        break;
      case "tool_call_completed":
        add("tool_result", event.seq, event.result, toolSpanOf(rows.spans, event.callId), event.at);
        if (event.attempts > 1) facet("retried", event.tool, event.at);
        break;
      case "error":
        add("error", event.seq, event.message, toolSpanOf(rows.spans, event.callId), event.at);
        break;
      case "run_failed":
        add("error", event.seq, `${event.reason} ${event.message}`, runSpan, event.at);
        break;
      case "inference_started":
        facet("model", event.model, event.at);
        break;
      default:
        break;
    }
  }
  // The model's words. User messages are the task and follow-ups (indexed from their events above),
  // tool messages the results (from tool_call_completed): indexing them again would double every hit.
  const lastInference = rows.spans.findLast((s) => s.kind === "inference")?.id ?? null;
  const batchTime = rows.at ?? rows.events.at(-1)?.at ?? new Date().toISOString();
  for (const { index, message } of rows.messages) {
    if (message.role === "assistant" && message.content) add("answer", index, message.content, lastInference, batchTime);
  }
  return { documents, facets };
}

/** Facets once each per (root, kind, value), the earliest time kept. */
function distinctFacets(facets: FacetRow[]): FacetRow[] {
  const byKey = new Map<string, FacetRow>();
  for (const f of facets) {
    const key = `${f.rootRunId}\u0000${f.kind}\u0000${f.value}`;
    if (!byKey.has(key)) byKey.set(key, f);
  }
  return [...byKey.values()];
}

/** Writes the search documents and facets of what ledger transactions inserted (the deriver's transaction `tx`). */
export async function indexForSearch(tx: DbTransaction, inserted: IndexableRows[]): Promise<void> {
  const documents: SearchDocumentRow[] = [];
  const facets: FacetRow[] = [];
  for (const rows of inserted) {
    const found = documentsOf(rows);
    documents.push(...found.documents);
    facets.push(...found.facets);
  }
  if (documents.length) await tx.searchDocument.createMany({ data: documents });
  const wanted = distinctFacets(facets);
  if (wanted.length === 0) return;
  // Most batches repeat facets their tree already has: one read skips them. What is left is upserted
  // (an insert that yields to a concurrent run of the same tree), keeping the first time.
  const known = await tx.runFacet.findMany({
    where: { rootRunId: { in: [...new Set(wanted.map((f) => f.rootRunId))] }, kind: { in: [...new Set(wanted.map((f) => f.kind))] } },
    select: { rootRunId: true, kind: true, value: true },
  });
  const has = new Set(known.map((f) => `${f.rootRunId}\u0000${f.kind}\u0000${f.value}`));
  for (const f of wanted) {
    if (has.has(`${f.rootRunId}\u0000${f.kind}\u0000${f.value}`)) continue;
    await tx.runFacet.upsert({ where: { rootRunId_kind_value: { rootRunId: f.rootRunId, kind: f.kind, value: f.value } }, create: f, update: {} });
  }
}
