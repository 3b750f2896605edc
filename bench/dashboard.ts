// bench/dashboard: the overview dashboard's reads (issue 26 §1: p95 of each
// query ≤ 200 ms, the whole response ≤ 1 s) on a scratch SQLite and a scratch
// PostgreSQL database holding BENCH_RUNS runs (default 100,000) over 30 days,
// 20 spans each (2,000,000) and their ~14 events each.
//
// How it is seeded, honestly: runs, events and spans are inserted with
// createMany (not through writeLedgerGroup, which would take an hour), GROUP
// runs per ledger transaction (writeTransaction, as the worker's writer groups
// up to 100 batches), and each such transaction queues its derivable rows with
// queueDerivedRows, as the writer's does. After every CHUNK runs the queue is
// derived by deriveQueued — the worker's deriver: search documents, facets and
// metric rollups, in its own transactions — one queued row (GROUP whole runs)
// per pass, so a pass stays far below the transaction limit. Versions resolve
// through agent_versions rows (v1..v3) and costs through ZAP_MODEL_PRICES, as
// the deriver reads them.
//
// Memory stays flat: nothing is kept across chunks, and the seeding yields to
// the event loop after every transaction. It must: on SQLite the driver
// (libsql) is synchronous, so an await chain of Prisma calls never lets the
// event loop turn, and libsql frees a prepared statement's native memory only
// in a finalizer the event loop runs — without the yields every statement's
// memory stayed (≈ 400 MB per 1,000 runs, mostly the rollup upserts: the
// default 100,000 runs once stalled a 2-core machine at 70,000).
//
// Measured per range (1h, 24h, 7d, 30d): the rollup query of every series
// (one statement), the same with a breakdown by graph, the pending-approvals
// gauge, and the whole dashboard response (readMetricsDashboard). Baseline in
// the same run on the same data: what one would write without rollups — the
// runs per step from `runs` and the model-call p95 from `run_events`' JSON —
// so the ratio is comparable across machines.
//
//   npm run bench:dashboard     (BENCH_RUNS=10000 for a quick look; BENCH_PROVIDERS=sqlite or postgresql for one)
import os from "node:os";
import { setImmediate as turnOfEventLoop } from "node:timers/promises";
import { createDb, type Db } from "../lib/db/prisma";
import { dbProvider, writeTransaction } from "../lib/db/transactions";
import { applyMigrations } from "../scripts/db/migrate";
import { freshPostgres, freshSqlite, postgresReachable, type TestDatabase } from "../scripts/test-support/databases";
import { percentile } from "../scripts/test-support/write-load";
import type { RunEvent, RunStatus, TraceSpan } from "../lib/contract/types";
import { queueDerivedRows, type InsertedLedgerRows } from "../lib/run-ledger/derived";
import { deriveQueued } from "../lib/run-ledger/deriver";
import { readRollupGroups } from "../lib/metrics/server/read";
import { pendingApprovalsNow } from "../lib/metrics/server/pending";
import { readMetricsDashboard } from "../lib/metrics/server/dashboard";
import { storedSeriesOf, timeGrid } from "../lib/metrics/assemble";
import { RESOLUTION_MINUTES } from "../lib/metrics/histogram";
import { METRIC_SERIES_NAMES, type MetricRange } from "../lib/metrics/schemas";

const RUNS = Number(process.env.BENCH_RUNS ?? 100_000);
const PROVIDERS = (process.env.BENCH_PROVIDERS ?? "sqlite,postgresql").split(",");
const SPANS_PER_RUN = 20;
const SAMPLES = 20;
const BASELINE_SAMPLES = 3;
/** Runs per ledger transaction (one queued row each; the worker's writer groups up to 100 batches). */
const GROUP = 100;
/** Runs written before the queue is derived. */
const CHUNK = 1_000;
/** Seeding progress is printed every this many runs. */
const PROGRESS_EVERY = 10_000;
const DAY = 86_400_000;
const NOW = Date.now();
const RANGES: Exclude<MetricRange, "custom">[] = ["1h", "24h", "7d", "30d"];

const GRAPHS = ["support-triage", "research-loop", "treasury", "invoice-triage", "help-desk", "front-desk", "trip-planner", "image-describer"];
const MODELS = ["openai/gpt-4o-mini", "anthropic/claude-3-5-haiku", "demo/assistant", "openai/gpt-4o"];
const TOOLS = ["lookup_order", "search_notes", "ledger_transfer", "send_email", "http_get", "calculator"];
const STARTERS = Array.from({ length: 10 }, (_, i) => `user${i}@zap.local`);
const FAILURES = ["tool_error", "model_error", "validation_error", "routing_exhausted", "timeout", "budget_exceeded"] as const;
/** The deriver reads prices from the configuration (getConfig, parsed once, on the first derive pass). */
const PRICES = "openai/gpt-4o-mini=0.15/0.6,openai/gpt-4o=2.5/10,anthropic/claude-3-5-haiku=0.8/4";
const pick = <T>(list: readonly T[], i: number): T => list[((i % list.length) + list.length) % list.length]!;
/** A deterministic pseudo-random number in [0, 1) per (run, salt). */
const noise = (i: number, salt: number) => ((Math.sin(i * 12.9898 + salt * 78.233) * 43758.5453) % 1 + 1) % 1;

interface Synthetic {
  run: { id: string; rootRunId: string; agentName: string; graphName: string; startedBy: string; task: string; status: string; startedAt: Date; endedAt: Date; errorReason: string | null };
  /** What the run's ledger transaction inserted: its whole ledger, as one batch. */
  inserted: InsertedLedgerRows;
}

/** Run i: started at an even spread over the last 30 days; ~14 events and 20 spans. */
function synthetic(i: number): Synthetic {
  const runId = `bench-${i}`;
  const start = NOW - 30 * DAY + Math.floor((i / RUNS) * 30 * DAY);
  const graph = pick(GRAPHS, i);
  let t = start;
  let seq = 0;
  const events: RunEvent[] = [];
  const emit = (body: Record<string, unknown>, after: number) => {
    t += after;
    events.push({ ...body, seq: ++seq, at: new Date(t).toISOString() } as RunEvent);
  };
  emit({ type: "run_started", agentName: "main", task: "bench", depth: 0 }, 0);
  if (i % 5 === 0) emit({ type: "routing_decided", decision: { router: "main", attempt: 1, target: pick(TOOLS, i), confidence: 0.7, reason: "", fallback: "general", chosen: noise(i, 1) < 0.1 ? "general" : pick(GRAPHS, i + 1), fallbackTaken: noise(i, 1) < 0.1, threshold: 0.5 } }, 50);
  for (let k = 0; k < 6; k++) {
    const model = pick(MODELS, i + (k % 2));
    emit({ type: "inference_completed", iteration: k + 1, model, usage: { inputTokens: 500 + ((i * 7 + k) % 1500), outputTokens: 50 + ((i + k) % 300) }, latencyMs: Math.round(200 * Math.exp(noise(i, k) * 2.5)), toolCalls: 1, attempts: 1 }, 400);
    if (k < 5) emit({ type: "tool_call_completed", iteration: k + 1, callId: `c${k}`, tool: pick(TOOLS, i + k), outcome: noise(i, 10 + k) < 0.05 ? "error" : "ok", durationMs: Math.round(20 * Math.exp(noise(i, 20 + k) * 3)), attempts: 1, result: "" }, 100);
  }
  if (i % 20 === 0) {
    const approvalId = `ap-${i}`;
    emit({ type: "approval_requested", approval: { id: approvalId, toolName: "ledger_transfer", requestedAt: new Date(t).toISOString(), kind: "tool" } }, 10);
    emit({ type: "approval_decided", approvalId, tool: "ledger_transfer", status: noise(i, 3) < 0.8 ? "approved" : "rejected", decidedBy: "approver", reason: null }, Math.round(60_000 * noise(i, 4)));
  }
  if (i % 33 === 0) emit({ type: "output_invalid", iteration: 6, attempt: 1, errors: ["x"], repairing: true }, 10);
  if (i % 10 === 0) {
    if (noise(i, 5) < 0.2) emit({ type: "plan_node_finished", nodeId: "n1", status: "failed", runId: null, reason: "tool failed", attempts: 2 }, 10);
    emit({ type: "plan_finished", outcome: pick(["completed", "completed", "partially_failed", "failed"], i / 10), completed: 3, failed: 0, skipped: 0 }, 10);
  }
  const roll = noise(i, 6);
  const failure = roll < 0.07 ? pick(FAILURES, i) : null;
  if (failure) emit({ type: "run_failed", reason: failure, message: "failed" }, 20);
  else if (roll < 0.1) emit({ type: "run_cancelled", message: "cancelled" }, 20);
  else emit({ type: "run_completed", output: "done" }, 20);
  const status: RunStatus = failure ? "failed" : roll < 0.1 ? "cancelled" : "completed";
  const spans: TraceSpan[] = [];
  for (let s = 0; s < SPANS_PER_RUN; s++) {
    const kind = s === 0 ? "run" : s % 3 === 1 ? "iteration" : s % 3 === 2 ? "inference" : "tool";
    spans.push({ id: `s${s}`, parentId: s === 0 ? null : "s0", kind, name: kind === "inference" ? pick(MODELS, i) : kind, status: "ok", startedAt: new Date(start + s * 100).toISOString(), endedAt: new Date(start + s * 100 + 90).toISOString() });
  }
  const startedBy = pick(STARTERS, i);
  const usage = events.reduce((sum, e) => (e.type === "inference_completed" ? { inputTokens: sum.inputTokens + e.usage.inputTokens, outputTokens: sum.outputTokens + e.usage.outputTokens } : sum), { inputTokens: 0, outputTokens: 0 });
  return {
    run: { id: runId, rootRunId: runId, agentName: "main", graphName: graph, startedBy, task: "bench", status, startedAt: new Date(start), endedAt: new Date(t), errorReason: failure },
    inserted: {
      run: { runId, rootRunId: runId, parentRunId: null, agentName: "main", task: "bench", context: {}, startedBy, graphName: graph, agentVersionId: `v${1 + (i % 3)}` },
      summary: {
        status,
        iteration: 6,
        usage,
        pendingApprovals: 0,
        lastEventSeq: seq,
        messageCount: 0,
        generation: 0,
        output: status === "completed" ? "done" : null,
        error: failure ? { reason: failure, message: "failed" } : null,
        startedAt: new Date(start).toISOString(),
        endedAt: new Date(t).toISOString(),
      },
      events,
      messages: [],
      spans,
    },
  };
}

const MB = 1024 * 1024;

/** The highest resident set size seen: sampled after every transaction (the SQLite driver blocks timers) and every 100 ms. */
function rssPeak(): { sample: () => number; peak: () => number; stop: () => number } {
  let peak = 0;
  const sample = () => {
    const rss = process.memoryUsage.rss();
    peak = Math.max(peak, rss);
    return rss;
  };
  const timer = setInterval(sample, 100);
  sample();
  return { sample, peak: () => peak, stop: () => (clearInterval(timer), sample(), peak) };
}

/** One ledger transaction: GROUP runs' rows, and their derivable rows queued as the worker's writer queues them. */
async function writeGroup(db: Db, group: Synthetic[]): Promise<{ events: number; spans: number }> {
  const eventRows = group.flatMap(({ run, inserted }) =>
    inserted.events.map((e) => {
      const data = JSON.stringify(e);
      return { runId: run.id, seq: e.seq, type: e.type, at: new Date(e.at), data, bytes: Buffer.byteLength(data) };
    }),
  );
  const spanRows = group.flatMap(({ run, inserted }) =>
    inserted.spans.map((s) => ({ runId: run.id, spanId: s.id, parentId: s.parentId, kind: s.kind, name: s.name, status: s.status, startedAt: new Date(s.startedAt), endedAt: s.endedAt ? new Date(s.endedAt) : null, data: "{}" })),
  );
  await writeTransaction(db, async (tx) => {
    await tx.run.createMany({ data: group.map((g) => g.run) });
    await tx.runEvent.createMany({ data: eventRows });
    await tx.runSpan.createMany({ data: spanRows });
    await queueDerivedRows(tx, group.map((g) => g.inserted));
  });
  return { events: eventRows.length, spans: spanRows.length };
}

interface Seeded {
  events: number;
  spans: number;
  rollupRows: number;
  documents: number;
  ms: number;
  ledgerMs: number;
  deriveMs: number;
  peakRssMb: number;
}

async function seed(db: Db): Promise<Seeded> {
  const started = performance.now();
  const memory = rssPeak();
  // The agent versions the runs name (v1..v3): the deriver reads their numbers from agent_versions.
  await db.agent.create({ data: { id: "bench-agent", name: "bench", versions: { create: [1, 2, 3].map((version) => ({ id: `v${version}`, version, graph: "{}" })) } } });
  let events = 0;
  let spans = 0;
  let ledgerMs = 0;
  let deriveMs = 0;
  let last = { at: started, runs: 0 };
  for (let from = 0; from < RUNS; from += CHUNK) {
    const to = Math.min(from + CHUNK, RUNS);
    const ledgerStarted = performance.now();
    for (let first = from; first < to; first += GROUP) {
      const group = Array.from({ length: Math.min(GROUP, to - first) }, (_, k) => synthetic(first + k));
      const written = await writeGroup(db, group);
      events += written.events;
      spans += written.spans;
      memory.sample();
      // Let the event loop turn: libsql's statements are freed by finalizers it runs (see the top of the file).
      await turnOfEventLoop();
    }
    const deriveStarted = performance.now();
    ledgerMs += deriveStarted - ledgerStarted;
    // The deriver, one queued row (one ledger transaction, GROUP runs) per pass.
    while ((await deriveQueued(db, { maxPasses: 1, rowsPerPass: 1 })) > 0) {
      memory.sample();
      await turnOfEventLoop();
    }
    deriveMs += performance.now() - deriveStarted;
    if (to % PROGRESS_EVERY === 0 || to === RUNS) {
      const now = performance.now();
      const rate = (to - last.runs) / ((now - last.at) / 1000);
      process.stdout.write(
        `  seeded ${to.toLocaleString("en-US")} runs in ${((now - started) / 1000).toFixed(0)} s: ${rate.toFixed(0)} runs/s (last ${(to - last.runs).toLocaleString("en-US")}), ` +
          `RSS ${(memory.sample() / MB).toFixed(0)} MB (peak ${(memory.peak() / MB).toFixed(0)} MB), load ${os.loadavg()[0]!.toFixed(1)}\n`,
      );
      last = { at: now, runs: to };
    }
  }
  // A backlog for the gauge: 200 approvals waiting, the oldest for a day.
  await db.approvalRecord.createMany({
    data: Array.from({ length: 200 }, (_, k) => ({ id: `pending-${k}`, runId: `bench-${RUNS - 1 - k}`, rootRunId: `bench-${RUNS - 1 - k}`, agentName: "main", toolName: "ledger_transfer", toolCallId: `c${k}`, arguments: "{}", requestedAt: new Date(NOW - DAY + k * 60_000), expiresAt: new Date(NOW + DAY) })),
  });
  const [rollupRows, documents, queued] = await Promise.all([db.metricRollup.count(), db.searchDocument.count(), db.deriveQueueItem.count()]);
  if (queued > 0) throw new Error(`${queued} queued rows left underived`);
  return { events, spans, rollupRows, documents, ms: performance.now() - started, ledgerMs, deriveMs, peakRssMb: memory.stop() / MB };
}

async function timed(samples: number, work: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  await work(); // warm-up
  for (let k = 0; k < samples; k++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** Without rollups: runs per step from `runs`, and the model calls' p95 from every inference event's JSON in the range. */
async function baseline(db: Db, range: MetricRange): Promise<void> {
  const grid = timeGrid(range, NOW);
  const from = new Date(grid.fromMinute * 60_000);
  const step = grid.stepMinutes * 60_000;
  if (dbProvider(db) === "postgresql") {
    await db.$queryRawUnsafe(`SELECT floor(extract(epoch FROM started_at) * 1000 / $2) AS slot, status, count(*) FROM runs WHERE started_at >= $1 GROUP BY slot, status`, from, step);
    await db.$queryRawUnsafe(
      `SELECT percentile_disc(0.95) WITHIN GROUP (ORDER BY (data::jsonb ->> 'latencyMs')::float8) FROM run_events WHERE type = 'inference_completed' AND at >= $1`,
      from,
    );
  } else {
    await db.$queryRawUnsafe(`SELECT CAST(unixepoch(started_at, 'subsec') * 1000 / ?2 AS INTEGER) AS slot, status, count(*) FROM runs WHERE started_at >= ?1 GROUP BY slot, status`, from.toISOString().replace("T", " ").replace("Z", ""), step);
    // SQLite has no percentile: the latencies, sorted, as the app would have to read them.
    await db.$queryRawUnsafe(`SELECT json_extract(data, '$.latencyMs') AS ms FROM run_events WHERE type = 'inference_completed' AND at >= ?1 ORDER BY ms`, from.toISOString());
  }
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function benchProvider(database: TestDatabase): Promise<string[]> {
  await applyMigrations(database.url);
  const db = createDb(database.url);
  const lines: string[] = [];
  try {
    console.log(`\n${database.provider}: seeding ${RUNS.toLocaleString("en-US")} runs …`);
    const seeded = await seed(db);
    const n = (x: number) => x.toLocaleString("en-US");
    const seededLine =
      `${database.provider}: ${n(RUNS)} runs, ${n(seeded.events)} events, ${n(seeded.spans)} spans, ${n(seeded.rollupRows)} rollup rows, ${n(seeded.documents)} search documents, ` +
      `seeded in ${(seeded.ms / 1000).toFixed(0)} s (${(RUNS / (seeded.ms / 1000)).toFixed(0)} runs/s; ledger transactions ${(seeded.ledgerMs / 1000).toFixed(0)} s, deriver ${(seeded.deriveMs / 1000).toFixed(0)} s), ` +
      `peak RSS ${seeded.peakRssMb.toFixed(0)} MB`;
    console.log(seededLine);
    lines.push(seededLine);
    await db.$executeRawUnsafe("ANALYZE");
    const stored = [...new Set(METRIC_SERIES_NAMES.flatMap(storedSeriesOf))];
    const now = new Date(NOW);
    for (const range of RANGES) {
      const grid = timeGrid(range, NOW);
      const query = { resolution: RESOLUTION_MINUTES[grid.resolution], series: stored, fromMinute: grid.fromMinute, toMinute: grid.toMinute, stepMinutes: grid.stepMinutes, filters: {} };
      const rollups = await timed(SAMPLES, () => readRollupGroups(db, { ...query, breakdown: "none" }));
      const byGraph = await timed(SAMPLES, () => readRollupGroups(db, { ...query, breakdown: "graph" }));
      const pending = await timed(SAMPLES, () => pendingApprovalsNow(db, {}, now));
      const whole = await timed(SAMPLES, () => readMetricsDashboard(db, { range }, now));
      const wholeByGraph = await timed(SAMPLES, () => readMetricsDashboard(db, { range, breakdown: "graph" }, now));
      const base = await timed(BASELINE_SAMPLES, () => baseline(db, range));
      const line =
        `${database.provider} ${range.padEnd(3)}: rollup query p50 ${fmt(rollups.p50)} p95 ${fmt(rollups.p95)}; by graph p95 ${fmt(byGraph.p95)}; pending p95 ${fmt(pending.p95)}; ` +
        `whole response p50 ${fmt(whole.p50)} p95 ${fmt(whole.p95)} (by graph p95 ${fmt(wholeByGraph.p95)}); baseline (2 aggregates from runs/run_events) p50 ${fmt(base.p50)} → ${(base.p50 / whole.p50).toFixed(1)}× the whole response`;
      console.log(line);
      lines.push(line);
    }
  } finally {
    await db.$disconnect();
    await database.drop();
  }
  return lines;
}

async function main(): Promise<void> {
  process.env.ZAP_MODEL_PRICES = PRICES;
  const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" / ");
  console.log(`bench/dashboard: ${os.cpus().length} cores, load ${load()}, ${RUNS.toLocaleString("en-US")} runs × ${SPANS_PER_RUN} spans, ${SAMPLES} samples per query (targets: p95 ≤ 200 ms per query, ≤ 1 s whole)`);
  const results: string[] = [];
  for (const provider of PROVIDERS) {
    if (provider === "postgresql" && !(await postgresReachable())) {
      console.log("postgresql: unreachable, skipped");
      continue;
    }
    results.push(...(await benchProvider(provider === "postgresql" ? await freshPostgres() : await freshSqlite())));
  }
  console.log(`\nsummary (load ${load()}):\n${results.join("\n")}`);
}

await main();
