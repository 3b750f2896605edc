// Browser-safe contract of search across runs: what a query may be, how it is
// cut into terms (the same words the databases' full-text indexes store), and
// the snippet a result shows. Server code (the index writer, the queries) lives in ./server.
import { z } from "zod";

/** At most this many characters of query text, and this many terms in it. */
export const QUERY_MAX_CHARS = 200;
export const QUERY_MAX_TERMS = 12;

// Letters and digits, as SQLite's unicode61 tokenizer and PostgreSQL's 'simple' parser split text:
// "Order #4417" is the terms order and 4417.
const TERM = /[\p{L}\p{N}]+/gu;

/**
 * The terms of a query, lowercased, without repeats. Only letters and digits
 * survive, so no user text ever reaches FTS5 or tsquery as syntax.
 */
export function searchTerms(query: string): string[] {
  return [...new Set((query.normalize("NFKC").toLowerCase().match(TERM) ?? []).map((t) => t.slice(0, 64)))];
}

/** A word as the indexes compare it: lowercased, accents dropped (SQLite's tokenizer folds them: "Zürich" is zurich). */
export function foldWord(word: string): string {
  return word.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

/** Whether `text` holds every term of `query` as a whole word, as the full-text indexes match. */
export function textMatches(text: string, query: string): boolean {
  const words = new Set((text.normalize("NFKC").match(TERM) ?? []).map(foldWord));
  return searchTerms(query).every((term) => words.has(foldWord(term)));
}

/** The `q` filter: some word or number to look for, bounded. */
export const searchQuerySchema = z
  .string()
  .trim()
  .min(1, "type a word or a number to search for")
  .max(QUERY_MAX_CHARS, `keep the search under ${QUERY_MAX_CHARS} characters`)
  .refine((q) => searchTerms(q).length > 0, "search for at least one word or number (letters or digits)")
  .refine((q) => searchTerms(q).length <= QUERY_MAX_TERMS, `search for at most ${QUERY_MAX_TERMS} words`);

/** Where a piece of indexed text came from in the run's ledger. */
// `seq` is the event's sequence number, except for `answer` (the model's words), keyed by the message's index
// in the conversation: two numberings, so they are two sources (a follow-up's event 6 and message 6 are both indexed).
export const SEARCH_SOURCES = ["task", "message", "answer", "tool_arguments", "tool_result", "error"] as const;
export type SearchSource = (typeof SEARCH_SOURCES)[number];

export const SEARCH_SOURCE_LABELS: Record<SearchSource, string> = {
  task: "task",
  message: "message",
  answer: "answer",
  tool_arguments: "tool arguments",
  tool_result: "tool result",
  error: "error",
};

/** A snippet as plain-text pieces, the matched words flagged: rendered as text nodes, so nothing in it is ever markup. */
export interface SnippetPart {
  text: string;
  hit: boolean;
}

/** The best match of a search in one run tree, for the runs list. */
export interface SearchHit {
  rootRunId: string;
  /** The run (root or sub-run) whose ledger holds the text. */
  runId: string;
  source: SearchSource;
  seq: number;
  /** The span to select on the run page; null when the ledger did not name one. */
  spanId: string | null;
  snippet: SnippetPart[];
}

/** The run page link of a hit: the run whose ledger holds the text (span ids are per run), its span selected when there is one. */
export function hitHref(hit: Pick<SearchHit, "rootRunId" | "runId" | "spanId">): string {
  const run = `/runs/${encodeURIComponent(hit.runId)}`;
  return hit.spanId ? `${run}?span=${encodeURIComponent(hit.spanId)}` : run;
}
