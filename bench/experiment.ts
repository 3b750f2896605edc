// bench/experiment: an experiment of BENCH_ITEMS items (500) × 2 versions on the
// demo model with every tool call replayed from the items' tapes, on the engine
// stack of the other benches (Temporal dev server, a worker process with a
// prebuilt bundle, SQLite). Reports items (units: item × version) per second
// and the worker's resident memory at rest and at peak, with the core count and
// load. Baselines in the same run: a 50-item experiment (scaling), and the same
// runs started as plain runs (no tape, no experiment workflow) at the same
// concurrency, so the experiment's own cost shows.
//
//   npm run bench:experiment      (BENCH_ITEMS, BENCH_CONCURRENCY (16), BENCH_LATENCY_MS (20) override)
import os from "node:os";
import { rssMb, peakRss } from "./lib/memory";
import { startEngineStack, type EngineStack } from "./lib/engine-stack";
import { saveAgentVersion } from "../lib/agents/repository";
import { applyChange } from "../lib/datasets/server/store";
import type { ItemDraft } from "../lib/datasets/import-parse";
import { startExperiment } from "../lib/experiments/server/start";
import { startExperimentSchema } from "../lib/experiments/schemas";

const ITEMS = Number(process.env.BENCH_ITEMS ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const GRAPH = "bench-experiment";

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" / ");
const order = (i: number) => `{"order_id":"B-${i}","status":"shipped"}`;
const task = (i: number) => `tool lookup_order {"order_id":"B-${i}"}\nanswer: order B-${i} shipped`;

function items(count: number, offset: number): ItemDraft[] {
  return Array.from({ length: count }, (_, i) => ({
    input: { task: task(offset + i), context: {} },
    expected: { output: `order B-${offset + i} shipped`, trajectory: [{ tool: "lookup_order", arguments: { order_id: `B-${offset + i}` } }] },
    tape: [{ kind: "tool_call", tool: "lookup_order", arguments: { order_id: `B-${offset + i}` }, outcome: "ok", result: order(offset + i) }],
    tags: [],
    source: {},
  }));
}

async function runExperiment(stack: EngineStack, user: { id: string; email: string }, dataset: string, label: string): Promise<void> {
  const started = performance.now();
  const memory = peakRss(stack.worker.pid!);
  const input = startExperimentSchema.parse({
    dataset,
    targets: [
      { graph: GRAPH, version: 1 },
      { graph: GRAPH, version: 2 },
    ],
    scorers: [{ kind: "exact" }, { kind: "trajectory", order: "strict", arguments: "exact" }],
    concurrency: CONCURRENCY,
  });
  const { experimentId, total } = await startExperiment({ db: stack.db, temporal: stack.client, taskQueue: "bench" }, input, user);
  for (;;) {
    const experiment = await stack.db.experiment.findUniqueOrThrow({ where: { id: experimentId }, select: { status: true } });
    if (experiment.status !== "running") break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const wall = (performance.now() - started) / 1000;
  const peak = memory.stop();
  const rows = await stack.db.experimentResult.groupBy({ by: ["status"], where: { experimentId }, _count: { _all: true } });
  const replayed = await stack.db.run.count({ where: { experimentId } });
  console.log(`   ${label}: ${total} units in ${wall.toFixed(1)} s = ${(total / wall).toFixed(1)} units/s; ${rows.map((r) => `${r._count._all} ${r.status}`).join(", ")}; ${replayed} runs`);
  console.log(`      worker peak resident memory ${peak.toFixed(0)} MB; load average now ${load()}`);
}

/** The same runs without tape or experiment: started at the same concurrency, each awaited on the server. */
async function plainRuns(stack: EngineStack, count: number): Promise<void> {
  const started = performance.now();
  const memory = peakRss(stack.worker.pid!);
  let next = 0;
  const errors: string[] = [];
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const version = (i % 2) + 1;
      try {
        const { runId } = await stack.engine.startRun({ graphName: GRAPH, version, task: task(Math.floor(i / 2)) });
        await stack.client.workflow.getHandle(runId).result();
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const wall = (performance.now() - started) / 1000;
  console.log(`   plain runs: ${count} in ${wall.toFixed(1)} s = ${(count / wall).toFixed(1)} runs/s; ${errors.length} errors${errors[0] ? ` (${errors[0]})` : ""}`);
  console.log(`      worker peak resident memory ${memory.stop().toFixed(0)} MB; load average now ${load()}`);
}

async function main(): Promise<void> {
  const stack = await startEngineStack({ latencyMs: LATENCY_MS, name: "experiment" });
  try {
    const user = await stack.db.user.findUniqueOrThrow({ where: { email: "builder@zap.local" }, select: { id: true, email: true } });
    // v2 differs only in temperature (the demo model ignores it): both versions score alike. The follow-up window is 0 so plain runs close at once.
    const graph = { entryAgent: "clerk", agents: [{ name: "clerk", model: "demo/bench", tools: ["lookup_order"] }], limits: { followUpWindowSeconds: 0 } };
    await saveAgentVersion(stack.db, GRAPH, graph, { createdById: user.id, note: "v1" });
    await saveAgentVersion(stack.db, GRAPH, { ...graph, agents: [{ ...graph.agents[0]!, temperature: 0.5 }] }, { createdById: user.id, note: "v2" });
    await applyChange(user, { newDataset: { name: "bench-small" } }, { add: items(50, 0), note: "50 items", action: "dataset.items_added" }, stack.db);
    await applyChange(user, { newDataset: { name: "bench-large" } }, { add: items(ITEMS, 0), note: `${ITEMS} items`, action: "dataset.items_added" }, stack.db);

    console.log(`machine: ${os.availableParallelism()} cores, load average ${load()} (1 / 5 / 15 min)`);
    console.log(`demo model latency ${LATENCY_MS} ms, concurrency ${CONCURRENCY}, every tool call replayed from the item's tape`);
    console.log(`   worker resident memory at rest ${rssMb(stack.worker.pid!).toFixed(0)} MB`);
    console.log("1) baseline: 50 items × 2 versions");
    await runExperiment(stack, user, "bench-small", "50 × 2");
    console.log(`2) ${ITEMS} items × 2 versions`);
    await runExperiment(stack, user, "bench-large", `${ITEMS} × 2`);
    console.log(`3) baseline: the same ${ITEMS * 2} runs as plain runs (no tape, no experiment workflow, lookups live)`);
    await plainRuns(stack, ITEMS * 2);
  } finally {
    await stack.stop();
  }
}

await main();
