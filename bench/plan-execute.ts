// bench/plan-execute: what the plan executor adds to a plan's own critical path.
//   A 50-node plan of width 10 (5 layers; each node depends on two of the layer
//   before) where every node is an agent run whose one model call takes 200 ms.
//   The floor is planning (the planner's own model call) plus the critical path:
//   5 nodes × 200 ms. Goal (issue 17): wall time ≤ 1.2 × (planning + critical path).
//   Prints the core count and load average: compare only runs on equally quiet machines.
//
//   npm run bench:plan-execute     (BENCH_NODE_MS, BENCH_RUNS, BENCH_WIDTH, BENCH_CONCURRENCY override; BENCH_PROFILE_DIR profiles the worker)
//   The 1,000-node plan (issue 22 §3): BENCH_WIDTH=200 BENCH_CONCURRENCY=100 BENCH_RUNS=1 npm run bench:plan-execute
//   — its floor counts the waves a layer wider than the concurrency needs.
import os from "node:os";
import type { RunEvent } from "../lib/contract/types";
import { criticalPathLength, type Plan } from "../lib/contract/plan";
import { startEngineStack } from "./lib/engine-stack";
import { historyMix, longestWorkflowTask } from "./lib/workflow-tasks";
import { peakRss } from "./lib/memory";

const NODE_MS = Number(process.env.BENCH_NODE_MS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const WIDTH = Number(process.env.BENCH_WIDTH ?? 10);
const CONCURRENCY = Math.min(100, Number(process.env.BENCH_CONCURRENCY ?? WIDTH));
const LAYERS = 5;

const plan: Plan = {
  nodes: Array.from({ length: WIDTH * LAYERS }, (_, n) => {
    const layer = Math.floor(n / WIDTH);
    const i = n % WIDTH;
    const dependsOn = layer === 0 ? [] : [`l${layer - 1}n${i}`, `l${layer - 1}n${(i + 1) % WIDTH}`];
    return { id: `l${layer}n${i}`, agent: "worker", objective: `part ${i} of layer ${layer}`, dependsOn };
  }),
};

const graph = {
  entryAgent: "planner",
  mode: "plan-and-execute" as const,
  plan: { maxNodes: WIDTH * LAYERS, concurrency: CONCURRENCY, nodeRetries: 0 },
  agents: [
    { name: "planner", model: "demo/planner" },
    { name: "worker", model: "demo/worker", description: "does one part" },
  ],
  limits: { followUpWindowSeconds: 0, tokenBudget: 100_000_000 },
};
// The workers' line first: a node quotes the first 8,000 characters of the task, and this plan is 90 KB of it.
const task = `Do the work in parts\n@worker: answer: part done\n@planner: return ${JSON.stringify(plan)}`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function main(): Promise<void> {
  // BENCH_PROFILE_DIR: the worker writes a V8 CPU profile there when it stops.
  const stack = await startEngineStack({ latencyMs: NODE_MS, name: "plan", workerArgs: process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [] });
  try {
    const { engine, client } = stack;
    /**
     * Per node, from the ledger's timestamps: how long after its last dependency
     * finished the plan started it (scheduling), until its model call began
     * (dispatch), the model call, and until the plan recorded it finished (report).
     */
    const whereTimeGoes = async (events: RunEvent[], launchedAt: number, answeredAt: number) => {
      const at = (e: RunEvent) => Date.parse(e.at);
      const started = new Map<string, { at: number; runId: string }>();
      const finishedAt = new Map<string, number>();
      for (const e of events) {
        if (e.type === "plan_node_started") started.set(e.nodeId, { at: at(e), runId: e.runId });
        if (e.type === "plan_node_finished") finishedAt.set(e.nodeId, at(e));
      }
      const sums = { scheduling: 0, dispatch: 0, model: 0, report: 0 };
      let counted = 0;
      for (const node of plan.nodes) {
        const start = started.get(node.id);
        const end = finishedAt.get(node.id);
        if (!start || end === undefined) continue;
        const child = await engine.getEvents(start.runId, 0);
        const inferenceStarted = child.find((e) => e.type === "inference_started");
        const inference = child.find((e) => e.type === "inference_completed");
        const runEnded = child.find((e) => e.type === "run_completed");
        if (!inferenceStarted || inference?.type !== "inference_completed" || !runEnded) continue;
        const ready = Math.max(started.get("")?.at ?? 0, ...node.dependsOn.map((d) => finishedAt.get(d) ?? 0));
        if (ready > 0) sums.scheduling += start.at - ready;
        sums.dispatch += at(inferenceStarted) - start.at;
        sums.model += inference.latencyMs;
        sums.report += end - at(runEnded);
        counted++;
      }
      const mean = (v: number) => (counted ? v / counted : NaN).toFixed(0);
      const firstStart = Math.min(...[...started.values()].map((s) => s.at));
      const lastFinish = Math.max(...finishedAt.values());
      return `launch to first node start ${(firstStart - launchedAt).toFixed(0)} ms (the planning model call included), last node finished to the run's answer ${(answeredAt - lastFinish).toFixed(0)} ms; per node: scheduling ${mean(sums.scheduling)} (after layer 1), dispatch ${mean(sums.dispatch)}, model ${mean(sums.model)}, report ${mean(sums.report)} over ${counted} nodes`;
    };
    const runPlan = async () => {
      const started = performance.now();
      const launchedAt = Date.now();
      const { runId } = await engine.startRun({ graph, task });
      await client.workflow.getHandle(runId).result();
      const wall = performance.now() - started;
      const answeredAt = Date.now();
      const events: RunEvent[] = [];
      for (let since = 0; ; ) {
        const page = await engine.getEvents(runId, since);
        if (!page.length) break;
        events.push(...page);
        since = page.at(-1)!.seq;
      }
      const planning = events.find((e) => e.type === "inference_completed");
      const planningMs = planning?.type === "inference_completed" ? planning.latencyMs : NaN;
      const finished = events.filter((e) => e.type === "plan_node_finished" && e.status === "completed").length;
      return { wall, planningMs, finished, runId, breakdown: await whereTimeGoes(events, launchedAt, answeredAt) };
    };
    await runPlan(); // warm-up: bundle caches, JIT, connections
    const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" / ");
    console.log(`machine: ${os.availableParallelism()} cores, load average ${load()} (1 / 5 / 15 min)`);
    // A layer wider than the concurrency runs in waves: the floor counts them.
    const depth = criticalPathLength(plan) * Math.ceil(WIDTH / CONCURRENCY);
    console.log(`plan: ${plan.nodes.length} nodes, width ${WIDTH}, concurrency ${CONCURRENCY}, critical path ${depth} node times × ${NODE_MS} ms = ${depth * NODE_MS} ms; ${RUNS} runs`);
    const memory = peakRss(stack.worker.pid ?? 0);
    const ratios: number[] = [];
    const runIds: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { wall, planningMs, finished, runId, breakdown } = await runPlan();
      runIds.push(runId);
      const floor = planningMs + depth * NODE_MS;
      ratios.push(wall / floor);
      console.log(`   run ${i + 1}: wall ${(wall / 1000).toFixed(2)} s; planning ${planningMs.toFixed(0)} ms + critical path ${depth * NODE_MS} ms = floor ${(floor / 1000).toFixed(2)} s; ${(wall / floor).toFixed(2)}× the floor; ${finished}/${plan.nodes.length} nodes completed`);
      console.log(`      where a node's time goes (mean ms): ${breakdown}`);
    }
    console.log(`   median ${median(ratios).toFixed(2)}× the floor (issue 22 target ≤ 1.5×, goal 1.2×); load average now ${load()}`);
    console.log(`   worker peak resident memory ${memory.stop().toFixed(0)} MB (target ≤ 1024 MB)`);
    const longest = await longestWorkflowTask(client, runIds);
    console.log(`   the last plan run's history: ${await historyMix(client, runIds.at(-1) ?? "")}`);
    console.log(`   longest workflow task of the plan runs: ${longest.ms} ms over ${longest.tasks} tasks (target ≤ 1000 ms)`);
  } finally {
    await stack.stop();
  }
}

await main();
