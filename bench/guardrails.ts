// bench/guardrails (issue 40 §4): what deterministic guardrails add to a model
// call. The same demo-model run (BENCH_TOOL_CALLS calculator calls, then an
// answer: TOOL_CALLS + 1 model calls) is started BENCH_RUNS times on each of
// three sides, interleaved (A B C A B C …) so that drift in the machine's load
// falls on every side alike:
//   A  plain: the agent has no guardrails (its runs never ask the `guardrails` patch);
//   B  guarded: input PII card + regex, output deny-list + max length, and a
//      tool_call regex on the calculator's arguments — deterministic checks only;
//   C  guarded without the tool guardrail: B less the tool_call one, to tell the
//      checks' cost from what a tool guardrail changes in the loop (a watched
//      call never runs eagerly inside the model call: worker/workflows/guardrails.ts).
// Every guardrail passes (nothing trips), the common case on the run's path.
// Per model call, from the ledger's spans: the run span's duration ÷ model
// calls (workflow time: it includes everything the guardrails add between the
// run's first and last activation), the model-call (inference) spans'
// durations, and the guardrail spans' own latency; cross-checked by the
// bench's wall clock (start → result) ÷ model calls and the worker's clock
// between model-call starts. Target: B − A ≤ 5 ms median per model call.
// Then a micro-bench of the pure checks (lib/guardrails/checks) on 4 kB.
// Prints the core count and load average: figures compare only between
// equally quiet machines.
//
//   npx tsx bench/guardrails.ts   (BENCH_RUNS per side, default 30; BENCH_TOOL_CALLS, default 4;
//                                  BENCH_LATENCY_MS, the demo model's, default 20;
//                                  BENCH_MICRO_ONLY=1 skips the engine part)
import os from "node:os";
import type { Client } from "@temporalio/client";
import { agentSchema, type AgentConfig } from "../lib/agents/schemas";
import type { GuardrailInput } from "../lib/guardrails/schemas";
import type { RunEvent, TraceNode, TraceSpan } from "../lib/contract/types";
import type { createEngine } from "../lib/engine/client";
import { startEngineStack } from "./lib/engine-stack";
import { benchText, denyTerms, printMicroBench } from "./lib/guardrail-micro";

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const TOOL_CALLS = Number(process.env.BENCH_TOOL_CALLS ?? 4);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const MODEL_CALLS = TOOL_CALLS + 1;
const TARGET_MS = 5;

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const median = (values: readonly number[]) => percentile(values, 50);
const ms = (n: number) => `${n.toFixed(2)} ms`;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" / ");

const INPUT_GUARDRAILS: GuardrailInput[] = [
  { name: "no-card", kind: "input", check: { type: "pii", detectors: ["card"] }, action: "block" },
  { name: "no-credentials", kind: "input", check: { type: "regex", pattern: "(?:password|secret)\\s*[:=]", caseInsensitive: true }, action: "block" },
];
const OUTPUT_GUARDRAILS: GuardrailInput[] = [
  { name: "deny-words", kind: "output", check: { type: "deny_list", terms: denyTerms(20) }, action: "block" },
  { name: "short-answer", kind: "output", check: { type: "max_length", chars: 8000 }, action: "block" },
];
const TOOL_GUARDRAILS: GuardrailInput[] = [
  // A calculator call whose expression is not plain arithmetic (letters, quotes) is refused.
  { name: "arithmetic-only", kind: "tool_call", tools: ["calculator"], check: { type: "regex", pattern: '"expression"\\s*:\\s*"[^"]*[A-Za-z;`$]', caseInsensitive: false }, action: "block" },
];

const agentWith = (guardrails: GuardrailInput[]): AgentConfig => agentSchema.parse({ name: "bench", model: "demo/bench", tools: ["calculator"], maxIterations: 50, guardrails });
const SIDES = [
  { key: "A", label: "plain (no guardrails)", agent: agentWith([]) },
  { key: "B", label: "guarded (input, output, tool_call)", agent: agentWith([...INPUT_GUARDRAILS, ...OUTPUT_GUARDRAILS, ...TOOL_GUARDRAILS]) },
  { key: "C", label: "guarded, no tool guardrail", agent: agentWith([...INPUT_GUARDRAILS, ...OUTPUT_GUARDRAILS]) },
] as const;

/** ~1 kB of ticket prose (scanned by the input checks) and the demo model's script; the answer (~300 chars) is scanned by the output checks. */
const TASK = `${benchText(1000).replace(/\n/g, " ")}\nrepeat ${TOOL_CALLS} tool calculator {"expression":"6*7"}\nanswer: ${benchText(300)}`;

interface RunFigures {
  /** Ledger: the run span's duration (workflow time) ÷ model calls. */
  runSpanPerCall: number;
  /** Ledger: each model call's (inference) span duration. */
  inferenceSpans: number[];
  /** Ledger: each guardrail span's duration. */
  guardrailSpans: number[];
  /** Bench's clock: start → result ÷ model calls. */
  wallPerCall: number;
  /** Worker's clock: from one model call's start to the next. */
  callToCall: number[];
}

const duration = (span: TraceSpan) => (span.endedAt ? Date.parse(span.endedAt) - Date.parse(span.startedAt) : NaN);
function flatten(nodes: readonly TraceNode[]): TraceSpan[] {
  return nodes.flatMap((node) => [node, ...flatten(node.children)]);
}

async function oneRun(engine: ReturnType<typeof createEngine>, client: Client, agent: AgentConfig): Promise<RunFigures> {
  const graph = { entryAgent: agent.name, agents: [agent], limits: { followUpWindowSeconds: 0, tokenBudget: 100_000_000 } };
  const started = performance.now();
  const { runId } = await engine.startRun({ graph, task: TASK });
  await client.workflow.getHandle(runId).result();
  const wall = performance.now() - started;
  const summary = await engine.getRun(runId);
  if (summary.status !== "completed") throw new Error(`run ${runId} ended ${summary.status}: ${summary.error?.message ?? ""}`);
  const spans = flatten(await engine.getTrace(runId));
  const events: RunEvent[] = [];
  for (let since = 0; ; ) {
    const page = await engine.getEvents(runId, since);
    if (!page.length) break;
    events.push(...page);
    since = page.at(-1)!.seq;
  }
  const inferenceSpans = spans.filter((s) => s.kind === "inference").map(duration);
  if (inferenceSpans.length !== MODEL_CALLS) throw new Error(`run ${runId}: ${inferenceSpans.length} model calls, expected ${MODEL_CALLS}`);
  const runSpan = spans.find((s) => s.kind === "run");
  const starts = events.flatMap((e) => (e.type === "inference_completed" && e.startedAt ? [Date.parse(e.startedAt)] : []));
  return {
    runSpanPerCall: runSpan ? duration(runSpan) / MODEL_CALLS : NaN,
    inferenceSpans,
    guardrailSpans: spans.filter((s) => s.kind === "guardrail").map(duration),
    wallPerCall: wall / MODEL_CALLS,
    callToCall: starts.slice(1).map((s, i) => s - starts[i]!),
  };
}

function line(label: string, values: readonly number[], baseline?: readonly number[]): string {
  const added = baseline ? `  added median ${ms(median(values) - median(baseline))}, ratio ${(median(values) / median(baseline)).toFixed(3)}×` : "";
  return `   ${label.padEnd(40)} median ${ms(median(values)).padStart(10)}  p95 ${ms(percentile(values, 95)).padStart(10)}${added}`;
}

async function engineBench(): Promise<void> {
  const stack = await startEngineStack({ latencyMs: LATENCY_MS, name: "guardrails" });
  try {
    const { engine, client } = stack;
    // Warm-up (bundle caches, JIT, the regex cache, connections), not measured: two runs per side.
    for (let i = 0; i < 2; i++) for (const side of SIDES) await oneRun(engine, client, side.agent);
    console.log(`machine: ${os.availableParallelism()} cores, load average ${load()} (1 / 5 / 15 min) at the start`);
    console.log(`${RUNS} runs per side, interleaved; each run ${MODEL_CALLS} model calls (demo model, ${LATENCY_MS} ms latency) and ${TOOL_CALLS} calculator calls; task ${TASK.length} chars`);
    const figures = new Map<string, RunFigures[]>(SIDES.map((s) => [s.key, []]));
    for (let i = 0; i < RUNS; i++) for (const side of SIDES) figures.get(side.key)!.push(await oneRun(engine, client, side.agent));
    const of = (key: string, pick: (f: RunFigures) => number | number[]) => figures.get(key)!.flatMap(pick);
    console.log(`load average ${load()} at the end of the runs`);

    const sections: Array<[string, (f: RunFigures) => number | number[]]> = [
      ["per model call, ledger: run span ÷ model calls (workflow time)", (f) => f.runSpanPerCall],
      ["per model call, bench's clock: start → result ÷ model calls", (f) => f.wallPerCall],
      ["model call to model call, worker's clock (events' startedAt)", (f) => f.callToCall],
      ["model-call (inference) spans, ledger", (f) => f.inferenceSpans],
    ];
    for (const [title, pick] of sections) {
      console.log(`${title}:`);
      for (const side of SIDES) console.log(line(`${side.key} ${side.label}`, of(side.key, pick), side.key === "A" ? undefined : of("A", pick)));
    }
    for (const side of SIDES.slice(1)) {
      const spans = of(side.key, (f) => f.guardrailSpans);
      console.log(`guardrail spans, ledger, side ${side.key}: ${(spans.length / RUNS).toFixed(0)} per run, median ${ms(median(spans))}, p95 ${ms(percentile(spans, 95))}, max ${ms(Math.max(...spans))} (workflow time: an inline check runs inside one activation, whose clock stands still)`);
    }
    // Paired: each guarded run against the plain run started just before it (drift cancels within a pair).
    for (const side of SIDES.slice(1)) {
      const diffs = figures.get(side.key)!.map((f, i) => f.runSpanPerCall - figures.get("A")![i]!.runSpanPerCall);
      console.log(`paired ${side.key} − A per model call (ledger run spans): median ${ms(median(diffs))}, interquartile ${ms(percentile(diffs, 25))} … ${ms(percentile(diffs, 75))}`);
    }
    const added = median(of("B", (f) => f.runSpanPerCall)) - median(of("A", (f) => f.runSpanPerCall));
    const addedWall = median(of("B", (f) => f.wallPerCall)) - median(of("A", (f) => f.wallPerCall));
    console.log(`added by deterministic guardrails, median per model call: ${ms(added)} by the ledger's run spans, ${ms(addedWall)} by the bench's clock — target ≤ ${TARGET_MS} ms: ${Math.max(added, addedWall) <= TARGET_MS ? "met" : "MISSED"}`);
  } finally {
    await stack.stop();
  }
}

if (process.env.BENCH_MICRO_ONLY !== "1") await engineBench();
const slowest = printMicroBench(4096);
console.log(`slowest check: ${slowest.label}, ${slowest.medianUs.toFixed(1)} µs on 4 kB (${((slowest.medianUs / 1000 / TARGET_MS) * 100).toFixed(1)} % of the ${TARGET_MS} ms budget); load average ${load()}`);
