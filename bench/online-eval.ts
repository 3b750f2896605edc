// bench/online-eval (issue 40 §4): does online evaluation keep up with 10
// runs/s at a 100 % sampling rate with deterministic scorers, on this machine?
// One engine stack (Temporal dev server, SQLite, one worker process), one saved
// demo graph. Two phases at the same offered load (BENCH_RATE runs/s for
// BENCH_SECONDS, started on a fixed clock, not waiting for each other):
//   A  baseline: no evaluator — the runs alone (their latency, runs/s ended);
//   B  evaluated: an evaluator on the graph (sampling 1, delay 0, checks:
//      contains, exact, latency, a PII guardrail and a regex guardrail on the
//      answer — no judge), created as phase B starts (activeFrom), so it scores
//      exactly B's runs.
// Figures: runs/s offered and ended, run latency (start → end) in both phases
// (what evaluation costs the runs beside it), evaluations/s (scored runs ÷ the
// time from the first run's end to the last score) and lag (score time − run
// end) p50/p95/max. "Keeps up": every B run scored, evaluations/s ≥ 90 % of the
// offered rate and lag p95 under BENCH_LAG_TARGET_S. Then C, the scorer's own
// capacity: a second evaluator backfills B's runs with nothing else running.
// Prints cores and load.
//
//   npx tsx bench/online-eval.ts   (BENCH_RATE runs/s, default 10; BENCH_SECONDS, default 30;
//                                   BENCH_LAG_TARGET_S, default 10; BENCH_LATENCY_MS, the demo model's, default 0)
import os from "node:os";
import { randomUUID } from "node:crypto";
import { saveAgentVersion } from "../lib/agents/repository";
import { evaluatorChecksSchema } from "../lib/online-eval/schemas";
import { ensureEvaluatorWorkflow, startBackfillWorkflow } from "../lib/online-eval/temporal";
import { startEngineStack, type EngineStack } from "./lib/engine-stack";

const RATE = Number(process.env.BENCH_RATE ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const LAG_TARGET_S = Number(process.env.BENCH_LAG_TARGET_S ?? 10);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 0);
const DRAIN_MS = 120_000;

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" / ");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

const CHECKS = evaluatorChecksSchema.parse([
  { source: "scorer", scorer: { kind: "contains", text: "refund" } },
  { source: "scorer", scorer: { kind: "exact" } },
  { source: "scorer", scorer: { kind: "latency", maxMs: 60_000 } },
  { source: "guardrail", name: "no-cards", on: "output", check: { type: "pii", detectors: ["card", "email", "iban"] } },
  { source: "guardrail", name: "no-secrets", on: "output", check: { type: "regex", pattern: "(?:password|secret)\\s*[:=]", caseInsensitive: true } },
]);

/** Starts RATE runs a second for SECONDS on a fixed clock; answers their ids once all have ended. */
async function offer(stack: EngineStack, graph: string): Promise<string[]> {
  const total = RATE * SECONDS;
  const t0 = Date.now();
  const starts: Promise<string>[] = [];
  for (let i = 0; i < total; i++) {
    await sleep(t0 + (i * 1000) / RATE - Date.now());
    starts.push(stack.engine.startRun({ graphName: graph, task: `answer: refund issued for order ${i}` }).then((r) => r.runId));
  }
  const ids = await Promise.all(starts);
  const deadline = Date.now() + DRAIN_MS;
  while (Date.now() < deadline) {
    const ended = await stack.db.run.count({ where: { id: { in: ids }, endedAt: { not: null } } });
    if (ended === ids.length) break;
    await sleep(500);
  }
  return ids;
}

async function runFigures(stack: EngineStack, ids: string[]) {
  const rows = await stack.db.run.findMany({ where: { id: { in: ids } }, select: { startedAt: true, endedAt: true } });
  const ended = rows.filter((r) => r.endedAt);
  const latency = ended.map((r) => (r.endedAt?.getTime() ?? 0) - r.startedAt.getTime());
  const first = Math.min(...rows.map((r) => r.startedAt.getTime()));
  const last = Math.max(...ended.map((r) => r.endedAt?.getTime() ?? 0));
  return { ended: ended.length, endedPerS: ended.length / ((last - first) / 1000), p50: percentile(latency, 50), p95: percentile(latency, 95) };
}

async function main() {
  console.log(`bench/online-eval: ${RATE} runs/s for ${SECONDS} s per phase, demo latency ${LATENCY_MS} ms; ${os.availableParallelism()} cores, load ${load()}`);
  const stack = await startEngineStack({ latencyMs: LATENCY_MS, name: "online-eval" });
  try {
    const builder = await stack.db.user.findUniqueOrThrow({ where: { email: "builder@zap.local" }, select: { id: true } });
    const graph = `bench-oe-${randomUUID().slice(0, 6)}`;
    await saveAgentVersion(stack.db, graph, { entryAgent: "main", agents: [{ name: "main", model: "demo/bench", tools: [] }], limits: { followUpWindowSeconds: 0 } }, { createdById: builder.id, note: "bench" });
    // Warm-up: the worker's first runs pay for caches and JIT.
    await Promise.all(Array.from({ length: 5 }, (_, i) => stack.engine.startRun({ graphName: graph, task: `answer: warm ${i}` })));
    await sleep(3_000);

    const baselineIds = await offer(stack, graph);
    const baseline = await runFigures(stack, baselineIds);
    console.log(`A baseline (no evaluator): ${baseline.ended}/${baselineIds.length} ended, ${baseline.endedPerS.toFixed(2)} runs/s ended; run latency p50 ${s(baseline.p50)}, p95 ${s(baseline.p95)}; load ${load()}`);

    // The evaluator as the server writes it (the row, then its workflow); activeFrom now: it scores phase B's runs only.
    const evaluatorId = `oev_${randomUUID().replaceAll("-", "").slice(0, 20)}`;
    await stack.db.onlineEvaluator.create({ data: { id: evaluatorId, name: `bench-${evaluatorId.slice(4, 12)}`, graph, checks: JSON.stringify(CHECKS), expectations: JSON.stringify({ output: "refund issued" }), samplingRate: 1, delaySeconds: 0, enabled: true, activeFrom: new Date(), createdById: builder.id, updatedById: builder.id } });
    await ensureEvaluatorWorkflow(stack.client, "bench", evaluatorId);

    const evaluatedIds = await offer(stack, graph);
    const evaluated = await runFigures(stack, evaluatedIds);
    console.log(`B evaluated:               ${evaluated.ended}/${evaluatedIds.length} ended, ${evaluated.endedPerS.toFixed(2)} runs/s ended; run latency p50 ${s(evaluated.p50)}, p95 ${s(evaluated.p95)}; load ${load()}`);

    const deadline = Date.now() + DRAIN_MS;
    while (Date.now() < deadline && (await stack.db.onlineEvaluation.count({ where: { evaluatorId, status: { not: "pending" } } })) < evaluatedIds.length) await sleep(500);
    const rows = await stack.db.onlineEvaluation.findMany({ where: { evaluatorId }, select: { status: true, runEndedAt: true, evaluatedAt: true } });
    const scored = rows.filter((r) => r.status === "scored" && r.evaluatedAt);
    const lag = scored.map((r) => (r.evaluatedAt?.getTime() ?? 0) - r.runEndedAt.getTime());
    const span = (Math.max(...scored.map((r) => r.evaluatedAt?.getTime() ?? 0)) - Math.min(...scored.map((r) => r.runEndedAt.getTime()))) / 1000;
    const perS = scored.length / span;
    const keepsUp = scored.length === evaluatedIds.length && perS >= RATE * 0.9 && percentile(lag, 95) <= LAG_TARGET_S * 1000;
    console.log(`evaluations: ${scored.length}/${evaluatedIds.length} scored (${rows.length - scored.length} other), ${perS.toFixed(2)} runs/s evaluated; lag p50 ${s(percentile(lag, 50))}, p95 ${s(percentile(lag, 95))}, max ${s(Math.max(...lag))}`);
    console.log(`run latency with evaluation beside it: p50 ${s(evaluated.p50)} against ${s(baseline.p50)} without (${(evaluated.p50 - baseline.p50 >= 0 ? "+" : "")}${s(evaluated.p50 - baseline.p50)})`);
    console.log(`target (${RATE} runs/s evaluated, lag p95 ≤ ${LAG_TARGET_S} s, every run scored): ${keepsUp ? "MET" : "NOT MET"}; ${os.availableParallelism()} cores, load ${load()}`);
    await stack.db.onlineEvaluator.update({ where: { id: evaluatorId }, data: { enabled: false } });

    // C: the scorer's own capacity, with no runs beside it: a second evaluator backfills phase B's runs (the same
    // checks, the same real ledger rows) on the now idle worker.
    const second = `oev_${randomUUID().replaceAll("-", "").slice(0, 20)}`;
    await stack.db.onlineEvaluator.create({ data: { id: second, name: `bench-${second.slice(4, 12)}`, graph, checks: JSON.stringify(CHECKS), expectations: JSON.stringify({ output: "refund issued" }), samplingRate: 1, enabled: false, activeFrom: new Date(), createdById: builder.id, updatedById: builder.id } });
    const firstStart = await stack.db.run.findFirst({ where: { id: { in: evaluatedIds } }, orderBy: { startedAt: "asc" }, select: { startedAt: true } });
    const backfillId = `obf_${randomUUID().replaceAll("-", "").slice(0, 20)}`;
    await stack.db.onlineEvaluationBackfill.create({ data: { id: backfillId, evaluatorId: second, from: new Date((firstStart?.startedAt.getTime() ?? Date.now()) - 1_000), to: new Date(), requestedById: builder.id } });
    const started = Date.now();
    await startBackfillWorkflow(stack.client, "bench", backfillId);
    while (Date.now() - started < DRAIN_MS && (await stack.db.onlineEvaluationBackfill.findUniqueOrThrow({ where: { id: backfillId } })).status === "running") await sleep(200);
    const capacity = await stack.db.onlineEvaluation.count({ where: { evaluatorId: second, status: "scored" } });
    console.log(`C capacity (backfill of B's runs, no runs beside it): ${capacity} scored in ${s(Date.now() - started)} = ${(capacity / ((Date.now() - started) / 1000)).toFixed(2)} runs/s; load ${load()}`);
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
