import "server-only";
// Reads of the search index behind the runs list: the run trees whose texts
// match a query (SQLite FTS5 / PostgreSQL full text), the trees that used a tool
// or a model, and each listed tree's best match with its snippet. Queries reach
// the database only as bound parameters made of letters and digits (searchTerms).
import type { Db } from "../../db/prisma";
import { dbProvider } from "../../db/transactions";
import { searchTerms, textMatches, type SearchHit, type SearchSource } from "../schemas";
import { snippetParts } from "../snippet";

/**
 * A filter of the runs list narrows it to at most this many trees, the newest
 * first: the list pages through them with its other filters, and the page says
 * when the cut was reached. The ids travel as bound parameters to the runs
 * query (Prisma allows SQLite 999 per statement); 500 of them cost that query
 * three times what 250 do (bench/search), for matches few people page to.
 */
export const MATCHING_TREES_MAX = 250;

/** FTS5 query: each term a quoted string (implicit AND). Terms are letters and digits only. */
function ftsMatch(terms: string[]): string {
  return terms.map((t) => `"${t}"`).join(" ");
}

/** tsquery: the terms joined by & (letters and digits only, so never a syntax error). */
function tsQuery(terms: string[]): string {
  return terms.join(" & ");
}

/** Matching texts read to find the newest trees: a common word matches most runs, and only the newest trees are shown. */
const MATCHING_TEXTS_MAX = MATCHING_TREES_MAX * 8;

/** The root run ids of the trees with a text matching every term of `query`, newest match first. */
export async function searchRootIds(db: Db, query: string, max = MATCHING_TREES_MAX): Promise<string[]> {
  const terms = searchTerms(query);
  if (terms.length === 0) return [];
  // Newest texts first, stopping after a bounded number: the database never sorts or groups every match.
  const rows =
    dbProvider(db) === "postgresql"
      ? await db.$queryRawUnsafe<{ root: string }[]>(
          `SELECT root_run_id AS root FROM search_documents WHERE search_vector @@ to_tsquery('simple', $1) ORDER BY id DESC LIMIT $2`,
          tsQuery(terms),
          MATCHING_TEXTS_MAX,
        )
      : await db.$queryRawUnsafe<{ root: string }[]>(
          `SELECT d.root_run_id AS root FROM search_fts JOIN search_documents d ON d.id = search_fts.rowid
           WHERE search_fts MATCH ?1 ORDER BY search_fts.rowid DESC LIMIT ?2`,
          ftsMatch(terms),
          MATCHING_TEXTS_MAX,
        );
  return [...new Set(rows.map((r) => r.root))].slice(0, max);
}

/** The root run ids of the trees that used this tool (called it) or model (an inference ran on it), newest first. */
export async function facetRootIds(db: Db, kind: "tool" | "model" | "retried", value: string, max = MATCHING_TREES_MAX): Promise<string[]> {
  const rows = await db.runFacet.findMany({ where: { kind, value }, orderBy: { at: "desc" }, take: max, select: { rootRunId: true } });
  return rows.map((r) => r.rootRunId);
}

/**
 * The tools or models some run used, alphabetically, at most `max` (the runs
 * list suggests them in its filters). Grouped by the (kind, value, at) index, so
 * the read walks one entry per value, not every tree that used it.
 */
export async function facetValues(db: Db, kind: "tool" | "model", max: number): Promise<string[]> {
  const rows = await db.runFacet.groupBy({ by: ["value"], where: { kind }, orderBy: { value: "asc" }, take: max });
  return rows.map((r) => r.value);
}

/** Which of these trees retried a tool call (a call that needed more than one attempt). */
export async function treesWithRetries(db: Db, rootRunIds: string[]): Promise<Set<string>> {
  if (rootRunIds.length === 0) return new Set();
  const rows = await db.runFacet.findMany({ where: { kind: "retried", rootRunId: { in: rootRunIds } }, select: { rootRunId: true }, distinct: ["rootRunId"] });
  return new Set(rows.map((r) => r.rootRunId));
}

/** Texts of the listed trees read to find their best match: plenty for a page of 25 trees (a few each, a long conversation's hundreds). */
const PAGE_TEXTS_MAX = 5_000;

/**
 * Each listed tree's newest matching text, as a hit with its snippet (trees
 * without a match are absent). The page's texts are read by tree (an index) and
 * matched here with the indexes' own rule (whole words, case and accents folded):
 * asking the full-text index per row costs a common word's whole posting list each time.
 */
export async function bestHits(db: Db, query: string, rootRunIds: string[]): Promise<Map<string, SearchHit>> {
  if (searchTerms(query).length === 0 || rootRunIds.length === 0) return new Map();
  // No ORDER BY in SQL: with one (and a LIMIT) the planner may walk the whole table in id order
  // instead of taking the root index; a page's few hundred rows are sorted here.
  const found = await db.searchDocument.findMany({
    where: { rootRunId: { in: rootRunIds } },
    take: PAGE_TEXTS_MAX,
    select: { id: true, runId: true, rootRunId: true, seq: true, source: true, spanId: true, text: true },
  });
  const rows = found.sort((a, b) => b.id - a.id);
  const hits = new Map<string, SearchHit>();
  for (const row of rows) {
    if (hits.has(row.rootRunId) || !textMatches(row.text, query)) continue;
    hits.set(row.rootRunId, {
      rootRunId: row.rootRunId,
      runId: row.runId,
      source: row.source as SearchSource,
      seq: Number(row.seq),
      spanId: row.spanId,
      snippet: snippetParts(row.text, query),
    });
  }
  return hits;
}
