// The ledger's reader of model usage for spend limits (lib/spend-limits): the
// tokens of inference spans that started in a time window, per model and UTC
// hour, for the whole workspace or the runs of one graph, user or API key.
// A sub-run counts toward its root run's scope (who started the tree, which
// graph it runs). Pricing is the caller's: a price book prices each hour.
import type { Db } from "../db/prisma";
import { dbProvider } from "../db/transactions";

/** Whose runs: every run, a saved graph's (by name), a user's (the starter as the run row records it: their email), or those started with an API key (its id, from the run's "run.started" audit row). */
export type SpendFilter = { kind: "workspace" } | { kind: "graph"; name: string } | { kind: "user"; starter: string } | { kind: "api_key"; apiKeyId: string };

export interface HourlyModelTokens {
  model: string;
  /** The hour's start, ms since the epoch. */
  hourMs: number;
  /** The first span of the group, ms since the epoch (when the hour's usage is priced). */
  firstMs: number;
  inputTokens: number;
  outputTokens: number;
}

const HOUR_MS = 3_600_000;

/** Inference tokens of spans started in [sinceMs, untilMs) by runs of the filter, per model and hour. */
export async function readHourlyModelTokens(db: Db, filter: SpendFilter, sinceMs: number, untilMs: number): Promise<HourlyModelTokens[]> {
  const postgres = dbProvider(db) === "postgresql";
  const param = (n: number) => (postgres ? `$${n}` : `?${n}`);
  const ms = (column: string) => (postgres ? `(extract(epoch FROM ${column}) * 1000)::bigint` : `CAST(round(unixepoch(${column}, 'subsec') * 1000) AS INTEGER)`);
  const token = (field: string) => (postgres ? `coalesce(sum((s.data::jsonb #>> '{tokens,${field}}')::bigint), 0)::float8` : `coalesce(sum(json_extract(s.data, '$.tokens.${field}')), 0)`);
  const hasTokens = postgres ? `s.data::jsonb ? 'tokens'` : `json_type(s.data, '$.tokens') IS NOT NULL`;
  const args: (string | number)[] = [sinceMs, untilMs];
  let scope = "";
  if (filter.kind === "graph") {
    args.push(filter.name);
    scope = `AND root.graph_name = ${param(args.length)}`;
  } else if (filter.kind === "user") {
    args.push(filter.starter);
    scope = `AND root.started_by = ${param(args.length)}`;
  } else if (filter.kind === "api_key") {
    args.push(filter.apiKeyId);
    const keyOf = postgres ? `(a.details::jsonb ->> 'apiKeyId')` : `json_extract(a.details, '$.apiKeyId')`;
    scope = `AND EXISTS (SELECT 1 FROM audit_events a WHERE a.action = 'run.started' AND a.target = root.id AND ${keyOf} = ${param(args.length)})`;
  }
  const started = ms("s.started_at");
  // Runs that ended before the window cannot have spans in it: most of the table is skipped by its end.
  const rows = await db.$queryRawUnsafe<{ model: string; hour: number | bigint; firstMs: number | bigint; inputTokens: number | bigint; outputTokens: number | bigint }[]>(
    `SELECT s.name AS model, ${started} / ${HOUR_MS} AS hour, min(${started}) AS "firstMs", ${token("inputTokens")} AS "inputTokens", ${token("outputTokens")} AS "outputTokens"
     FROM run_spans s JOIN runs r ON r.id = s.run_id JOIN runs root ON root.id = r.root_run_id
     WHERE s.kind = 'inference' AND ${hasTokens} AND (r.ended_at IS NULL OR ${ms("r.ended_at")} >= ${param(1)})
       AND ${started} >= ${param(1)} AND ${started} < ${param(2)} ${scope}
     GROUP BY s.name, ${started} / ${HOUR_MS}`,
    ...args,
  );
  return rows.map((row) => ({ model: row.model, hourMs: Number(row.hour) * HOUR_MS, firstMs: Number(row.firstMs), inputTokens: Number(row.inputTokens), outputTokens: Number(row.outputTokens) }));
}

/** A run's graph and starter (an email), or null before its row is written: whom a run tree's spend counts toward. */
export async function readRunStarter(db: Db, runId: string): Promise<{ graphName: string | null; startedBy: string | null } | null> {
  return db.run.findUnique({ where: { id: runId }, select: { graphName: true, startedBy: true } });
}
