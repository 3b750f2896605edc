// bench/otlp-export: what the OTLP export costs the runs (issue 26 §3: it must
// never slow or fail a run). The same batch of concurrent runs on three fresh
// stacks (Temporal dev server, SQLite, a worker process as `npm start` runs it):
//   off      — no OTEL_* variable (the baseline, measured in the same run);
//   on       — exporting to an in-process OTLP/HTTP receiver;
//   down     — exporting to a closed port (every batch fails, every span is dropped).
// Prints run latency p50/p95 and wall time with their ratios to "off", the spans
// received and the drops the worker reported (GET /api/health's row), the core
// count and load average: compare only runs on equally quiet machines.
//
//   npx tsx bench/otlp-export.ts        (BENCH_RUNS, BENCH_LATENCY_MS override)
import os from "node:os";
import { startEngineStack, type EngineStack } from "./lib/engine-stack";
import { startOtlpReceiver } from "../scripts/test-support/otlp-receiver";
import { freePort } from "../scripts/test-support/ports";
import { readExportStats } from "../lib/telemetry/stats-store";
import { traceIdFor } from "../lib/telemetry/ids";
import type { TelemetryStats } from "../lib/telemetry/stats-store";

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);

const graph = {
  entryAgent: "main",
  agents: [{ name: "main", model: "demo/bench", tools: ["calculator"] }],
  // No follow-up window: each run closes with its answer, so both export triggers fire.
  limits: { followUpWindowSeconds: 0 },
};
const task = 'repeat 3 tool calculator {"expression":"6*7"}\nanswer: done';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

interface Phase {
  name: string;
  p50: number;
  p95: number;
  wallMs: number;
  failed: number;
  runIds: string[];
  stats: TelemetryStats | null;
}

async function runBatch(stack: EngineStack, name: string): Promise<Phase> {
  const started = performance.now();
  const latencies: number[] = [];
  let failed = 0;
  const runIds = await Promise.all(
    Array.from({ length: RUNS }, async () => {
      const t0 = performance.now();
      const { runId } = await stack.engine.startRun({ graph, task });
      try {
        await stack.client.workflow.getHandle(runId).result();
      } catch {
        failed++;
      }
      latencies.push(performance.now() - t0);
      return runId;
    }),
  );
  const wallMs = performance.now() - started;
  // The worker adds its counts to the shared row every 5 s.
  await new Promise((resolve) => setTimeout(resolve, 7000));
  const stats = await readExportStats(stack.db);
  return { name, p50: percentile(latencies, 50), p95: percentile(latencies, 95), wallMs, failed, runIds, stats };
}

async function phase(name: string, env: Record<string, string | undefined>): Promise<Phase> {
  const saved = { ...process.env };
  for (const key of Object.keys(process.env)) if (key.startsWith("OTEL_")) delete process.env[key];
  Object.assign(process.env, env);
  const stack = await startEngineStack({ latencyMs: LATENCY_MS, name: `otlp-${name}` });
  process.env = saved;
  try {
    return await runBatch(stack, name);
  } finally {
    await stack.stop();
  }
}

const receiver = await startOtlpReceiver();
const closed = `http://127.0.0.1:${await freePort()}/v1/traces`;
console.log(`bench/otlp-export: ${RUNS} concurrent runs (3 calculator calls each, demo model ${LATENCY_MS} ms) per phase; ${os.availableParallelism()} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
const off = await phase("off", {});
const on = await phase("on", { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: "200" });
const down = await phase("down", { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: closed, OTEL_EXPORTER_OTLP_TIMEOUT: "2000", OTEL_BSP_SCHEDULE_DELAY: "200" });
await receiver.close();

const traces = new Set(receiver.spans.map((s) => s.traceId));
const exportedRuns = on.runIds.filter((id) => traces.has(traceIdFor(id))).length;
for (const p of [off, on, down]) {
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  const s = p.stats;
  console.log(
    `${p.name.padEnd(5)} p50 ${p.p50.toFixed(0)} ms (${ratio(p.p50, off.p50)}), p95 ${p.p95.toFixed(0)} ms (${ratio(p.p95, off.p95)}), wall ${(p.wallMs / 1000).toFixed(1)} s (${ratio(p.wallMs, off.wallMs)}), failed runs ${p.failed}` +
      (s ? `; spans exported ${s.exportedSpans}, dropped ${s.droppedSpans}, failed batches ${s.failedExports}, runs dropped ${s.droppedRuns}` : "; export off (no counts)"),
  );
}
console.log(`on: ${exportedRuns} of ${RUNS} runs' traces reached the receiver (${receiver.spans.length} spans in ${receiver.requests} requests; a run is sent at its answer and again as it closes, with the same ids)`);
process.exit(0);
