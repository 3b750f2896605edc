import "server-only";
// Reads of the search index behind the runs list: the run trees whose texts
// match a query (SQLite FTS5 / PostgreSQL full text), the trees that used a tool
// or a model, and each listed tree's best match with its snippet. Queries reach
// the database only as bound parameters made of letters and digits (searchTerms).
import type { Db } from "../../db/prisma";
import { dbProvider } from "../../db/transactions";
import { searchTerms, type SearchHit, type SearchSource } from "../schemas";
import { snippetParts } from "../snippet";

/**
 * A filter of the runs list narrows it to at most this many trees, the newest
 * first: the list pages through them with its other filters, and the page says
 * when the cut was reached.
 */
export const MATCHING_TREES_MAX = 1_000;

/** FTS5 query: each term a quoted string (implicit AND). Terms are letters and digits only. */
function ftsMatch(terms: string[]): string {
  return terms.map((t) => `"${t}"`).join(" ");
}

/** The indexed expression of search_documents_fts_idx (the PostgreSQL migration), repeated exactly so the index serves. */
const PG_VECTOR = (column: string) => `to_tsvector('simple', regexp_replace(${column}, '[^[:alnum:]]+', ' ', 'g'))`;

/** tsquery: the terms joined by & (letters and digits only, so never a syntax error). */
function tsQuery(terms: string[]): string {
  return terms.join(" & ");
}

/** The root run ids of the trees with a text matching every term of `query`, newest match first. */
export async function searchRootIds(db: Db, query: string, max = MATCHING_TREES_MAX): Promise<string[]> {
  const terms = searchTerms(query);
  if (terms.length === 0) return [];
  const rows =
    dbProvider(db) === "postgresql"
      ? await db.$queryRawUnsafe<{ root: string }[]>(
          `SELECT root_run_id AS root FROM search_documents
           WHERE ${PG_VECTOR("text")} @@ to_tsquery('simple', $1)
           GROUP BY root_run_id ORDER BY max(id) DESC LIMIT $2`,
          tsQuery(terms),
          max,
        )
      : await db.$queryRawUnsafe<{ root: string }[]>(
          `SELECT d.root_run_id AS root FROM search_fts JOIN search_documents d ON d.id = search_fts.rowid
           WHERE search_fts MATCH ?1
           GROUP BY d.root_run_id ORDER BY max(d.id) DESC LIMIT ?2`,
          ftsMatch(terms),
          max,
        );
  return rows.map((r) => r.root);
}

/** The root run ids of the trees that used this tool (called it) or model (an inference ran on it), newest first. */
export async function facetRootIds(db: Db, kind: "tool" | "model" | "retried", value: string, max = MATCHING_TREES_MAX): Promise<string[]> {
  const rows = await db.runFacet.findMany({ where: { kind, value }, orderBy: { at: "desc" }, take: max, select: { rootRunId: true } });
  return rows.map((r) => r.rootRunId);
}

/** Which of these trees retried a tool call (a call that needed more than one attempt). */
export async function treesWithRetries(db: Db, rootRunIds: string[]): Promise<Set<string>> {
  if (rootRunIds.length === 0) return new Set();
  const rows = await db.runFacet.findMany({ where: { kind: "retried", rootRunId: { in: rootRunIds } }, select: { rootRunId: true }, distinct: ["rootRunId"] });
  return new Set(rows.map((r) => r.rootRunId));
}

interface MatchRow {
  runId: string;
  rootRunId: string;
  seq: number | bigint;
  source: string;
  spanId: string | null;
  text: string;
}

/** Each listed tree's newest matching text, as a hit with its snippet (trees without a match are absent). */
export async function bestHits(db: Db, query: string, rootRunIds: string[]): Promise<Map<string, SearchHit>> {
  const terms = searchTerms(query);
  if (terms.length === 0 || rootRunIds.length === 0) return new Map();
  const postgres = dbProvider(db) === "postgresql";
  const ids = rootRunIds.map((_, i) => (postgres ? `$${i + 2}` : `?${i + 2}`)).join(", ");
  const columns = `d.run_id AS "runId", d.root_run_id AS "rootRunId", d.seq, d.source, d.span_id AS "spanId", d.text`;
  // Narrow by tree first (an index), then test the match on those rows only: a common word matches
  // millions of rows, a page of trees holds a few hundred.
  const rows = postgres
    ? await db.$queryRawUnsafe<MatchRow[]>(
        `SELECT ${columns} FROM search_documents d
         WHERE d.root_run_id IN (${ids}) AND ${PG_VECTOR("d.text")} @@ to_tsquery('simple', $1)
         ORDER BY d.id DESC`,
        tsQuery(terms),
        ...rootRunIds,
      )
    : await db.$queryRawUnsafe<MatchRow[]>(
        `SELECT ${columns} FROM search_documents d
         WHERE d.root_run_id IN (${ids}) AND EXISTS (SELECT 1 FROM search_fts WHERE search_fts MATCH ?1 AND search_fts.rowid = d.id)
         ORDER BY d.id DESC`,
        ftsMatch(terms),
        ...rootRunIds,
      );
  const hits = new Map<string, SearchHit>();
  for (const row of rows) {
    if (hits.has(row.rootRunId)) continue;
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
