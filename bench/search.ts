// bench/search: search across runs (issue 26 §4, target p95 ≤ 300 ms) on a
// scratch SQLite and a scratch PostgreSQL database holding BENCH_RUNS runs
// (default 100,000) with realistic texts — a task naming a customer and an
// order number, a tool call's arguments and result, the model's answer, an
// error on one run in ten — indexed by the same code as the ledger's writer.
// Each query is what the runs list does with `q`: the matching trees, one page
// of 25 runs among them (with a status filter for some), and each row's best
// match with its snippet. Baseline, in the same run and on the same rows:
// LIKE '%term%' over the same texts, the query one would write without an index.
//
//   npm run bench:search     (BENCH_RUNS=20000 for a quick look; BENCH_PROVIDERS=sqlite or postgresql for one)
import os from "node:os";
import { createDb, type Db } from "../lib/db/prisma";
import { dbProvider } from "../lib/db/transactions";
import { applyMigrations } from "../scripts/db/migrate";
import { freshPostgres, freshSqlite, postgresReachable, type TestDatabase } from "../scripts/test-support/databases";
import { percentile } from "../scripts/test-support/write-load";
import { documentsOf } from "../lib/search/server/index-writer";
import { bestHits, searchRootIds } from "../lib/search/server/query";
import { readRunRows } from "../lib/run-ledger/read";
import type { RunEvent } from "../lib/contract/types";

const RUNS = Number(process.env.BENCH_RUNS ?? 100_000);
const PROVIDERS = (process.env.BENCH_PROVIDERS ?? "sqlite,postgresql").split(",");
const SAMPLES = 60;
const BASELINE_SAMPLES = 8;
const CHUNK = 500;

const NAMES = Array.from({ length: 2_000 }, (_, i) => `${["Okafor", "Lindqvist", "Nakamura", "Moreau", "Castillo", "Brennan", "Haddad", "Kowalski"][i % 8]}${i}`);
const ISSUES = ["never arrived", "arrived damaged", "was charged twice", "wants a refund", "asks to change the address", "reports a delayed shipment", "cannot log in", "asks about the invoice"];
const CARRIERS = ["DHL", "UPS", "PostNL", "Royal Mail", "FedEx"];
const STATUSES = ["completed", "completed", "completed", "failed", "cancelled"] as const;
const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;

function runTexts(i: number) {
  const name = pick(NAMES, i * 7);
  const order = 10_000 + i;
  const issue = pick(ISSUES, i * 3);
  const at = new Date(Date.UTC(2026, 0, 1) + i * 20_000).toISOString();
  const events: RunEvent[] = [
    { seq: 1, at, type: "run_started", agentName: "triage", task: `Customer ${name} says order ${order} ${issue}. Look it up and help.`, depth: 0 },
    { seq: 2, at, type: "inference_started", iteration: 1, model: "demo/assistant" },
    { seq: 3, at, type: "tool_call_started", iteration: 1, callId: "c1", tool: "lookup_order", arguments: JSON.stringify({ order_id: String(order), customer: name }) },
    { seq: 4, at, type: "tool_call_completed", iteration: 1, callId: "c1", tool: "lookup_order", outcome: "ok", durationMs: 12, attempts: 1, result: JSON.stringify({ status: pick(["in transit", "delivered", "lost"], i), carrier: pick(CARRIERS, i), eta: "2026-02-03" }) },
  ];
  if (i % 10 === 0) events.push({ seq: 5, at, type: "error", kind: "tool", message: `carrier ${pick(CARRIERS, i)} API timed out after 30 s`, callId: "c2" });
  const messages = [{ index: 2, message: { role: "assistant" as const, content: `I looked up order ${order} for ${name}: it ${issue === "never arrived" ? "is lost; I will issue a refund" : "is on its way with " + pick(CARRIERS, i)}.` } }];
  return { at, events, messages, order, name };
}

async function seed(db: Db): Promise<void> {
  for (let start = 0; start < RUNS; start += CHUNK) {
    const runs = [];
    const documents = [];
    const facets = [];
    for (let i = start; i < Math.min(RUNS, start + CHUNK); i++) {
      const runId = `bench-${i}`;
      const { at, events, messages } = runTexts(i);
      runs.push({ id: runId, rootRunId: runId, agentName: "triage", graphName: "support-triage", task: (events[0] as { task: string }).task, status: pick(STATUSES, i), startedAt: new Date(at), lastEventSeq: events.length });
      const found = documentsOf({ run: { runId, rootRunId: runId }, events, messages, spans: [{ id: "s1", kind: "run" }] });
      documents.push(...found.documents);
      facets.push(...found.facets);
    }
    await db.$transaction([db.run.createMany({ data: runs }), db.searchDocument.createMany({ data: documents }), db.runFacet.createMany({ data: facets })]);
  }
}

interface Query {
  label: string;
  q: string;
  status?: string;
}

function queries(): Query[] {
  const out: Query[] = [];
  for (let k = 0; k < SAMPLES; k++) {
    const i = Math.floor((k * 7919) % RUNS);
    const { order, name } = runTexts(i);
    switch (k % 6) {
      case 0: out.push({ label: "order number", q: `order ${order}` }); break;
      case 1: out.push({ label: "customer name", q: name }); break;
      case 2: out.push({ label: "common word", q: "refund" }); break;
      case 3: out.push({ label: "two common words + status", q: "delayed shipment", status: "failed" }); break;
      case 4: out.push({ label: "error text", q: `${pick(CARRIERS, i)} timed out` }); break;
      default: out.push({ label: "no match", q: `zebra${k}` }); break;
    }
  }
  return out;
}

/** What the runs list does with q: the matching trees, a page of 25 among them, each row's best match. */
async function listSearch(db: Db, query: Query): Promise<number> {
  const ids = await searchRootIds(db, query.q);
  const { rows, total } = await readRunRows(db, { topLevel: true, runIds: ids, status: query.status }, { take: 25 });
  await bestHits(db, query.q, rows.map((r) => r.id));
  return total;
}

/** Baseline: the same page found by LIKE over the same texts (every term, case-folded), no full-text index. */
async function likeSearch(db: Db, query: Query): Promise<number> {
  const terms = query.q.toLowerCase().split(/\s+/);
  const postgres = dbProvider(db) === "postgresql";
  const where = terms.map((_, n) => (postgres ? `lower(text) LIKE $${n + 1}` : `lower(text) LIKE ?${n + 1}`)).join(" AND ");
  const rows = await db.$queryRawUnsafe<{ root: string }[]>(
    `SELECT root_run_id AS root FROM search_documents WHERE ${where} GROUP BY root_run_id ORDER BY max(id) DESC LIMIT 250`,
    ...terms.map((t) => `%${t}%`),
  );
  const page = await readRunRows(db, { topLevel: true, runIds: rows.map((r) => r.root), status: query.status }, { take: 25 });
  return page.total;
}

async function measure(db: Db, list: Query[], fn: (db: Db, q: Query) => Promise<number>): Promise<number[]> {
  const latencies: number[] = [];
  for (const q of list) {
    const t = performance.now();
    await fn(db, q);
    latencies.push(performance.now() - t);
  }
  return latencies;
}

const fmt = (n: number) => `${n.toFixed(1)} ms`;

async function benchOne(provider: string): Promise<boolean> {
  let database: TestDatabase;
  if (provider === "postgresql") {
    if (!(await postgresReachable())) {
      console.log("postgresql: not reachable, skipped");
      return true;
    }
    database = await freshPostgres();
  } else database = await freshSqlite();
  await applyMigrations(database.url);
  const db = createDb(database.url);
  try {
    const t0 = performance.now();
    await seed(db);
    const seeded = (performance.now() - t0) / 1000;
    const documents = await db.searchDocument.count();
    if (provider === "postgresql") await db.$executeRawUnsafe("ANALYZE");
    const list = queries();
    await measure(db, list.slice(0, 6), listSearch); // warm the cache, as a server that has answered before
    const search = await measure(db, list, listSearch);
    const like = await measure(db, list.slice(0, BASELINE_SAMPLES), likeSearch);
    const byLabel = new Map<string, number[]>();
    list.forEach((q, n) => byLabel.set(q.label, [...(byLabel.get(q.label) ?? []), search[n]!]));
    const p95 = percentile(search, 95);
    console.log(`\n${provider}: ${RUNS.toLocaleString("en")} runs, ${documents.toLocaleString("en")} indexed texts (seeded in ${seeded.toFixed(0)} s)`);
    console.log(`  search (runs list with q): p50 ${fmt(percentile(search, 50))}, p95 ${fmt(p95)}, max ${fmt(Math.max(...search))} over ${search.length} queries`);
    for (const [label, values] of byLabel) console.log(`    ${label.padEnd(28)} p50 ${fmt(percentile(values, 50))}  max ${fmt(Math.max(...values))}`);
    console.log(`  baseline LIKE '%term%': p50 ${fmt(percentile(like, 50))}, p95 ${fmt(percentile(like, 95))} over ${like.length} queries`);
    console.log(`  ratio (baseline p50 / search p50): ${(percentile(like, 50) / percentile(search, 50)).toFixed(1)}×`);
    console.log(`  target p95 ≤ 300 ms: ${p95 <= 300 ? "met" : "MISSED"}`);
    return p95 <= 300;
  } finally {
    await db.$disconnect();
    await database.drop();
  }
}

console.log(`bench/search: ${os.cpus().length} cores, load ${os.loadavg()[0]?.toFixed(2)} (1 min)`);
let met = true;
for (const provider of PROVIDERS) met = (await benchOne(provider)) && met;
console.log(`\nload after: ${os.loadavg()[0]?.toFixed(2)}`);
process.exit(met ? 0 : 1);
