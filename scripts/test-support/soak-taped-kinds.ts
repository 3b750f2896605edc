// The replay soak's taped runs (a fork of a finished run, an experiment's unit
// started on its own), whole experiments, and playground calls: each started as
// the web server starts it (lib/forks, lib/tapes, lib/experiments,
// lib/playground), so the soak covers the workflows those doors start.
import { randomUUID } from "node:crypto";
import { saveAgentVersion } from "../../lib/agents/repository";
import { forkRunWith } from "../../lib/forks/server/fork-run";
import { readSpans } from "../../lib/run-ledger/read";
import { startTapedRunWith } from "../../lib/tapes/server/start-taped-run";
import type { TapeEntry } from "../../lib/tapes/schemas";
import { experimentWorkflowId } from "../../lib/experiments/workflow-contract";
import { executePlayground } from "../../lib/playground/server/temporal";
import type { PlaygroundCallRequest } from "../../lib/playground/contract";
import { dataset, item, start as startExperiment, tapeCall, twoVersionGraph, waitForExperiment } from "../../worker/engine-tests/experiment-fixtures";
import { singleAgentGraph, waitForStatus, type EngineHarness } from "./engine-harness";
import type { SessionUser } from "../../lib/auth/server/session";
import type { SoakContext, SoakKind, Started } from "./soak-kinds";
import type { Rng } from "./soak-random";

const calc = (expression: string) => `tool calculator {"expression":"${expression}"}`;
const order = (n: number) => `B-${String(1000 + (n % 9000)).padStart(4, "0")}`;

/** The saved graph forks and taped units start from: side-effect-free tools beside a gated transfer. */
export async function saveSoakGraph(h: EngineHarness, builder: SessionUser): Promise<string> {
  const name = `soak-${randomUUID().slice(0, 8)}`;
  const agent = { tools: ["calculator", "lookup_order", "search_notes", "ledger_transfer"], maxIterations: 100, approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver" as const }] };
  await saveAgentVersion(h.db, name, singleAgentGraph(agent, { followUpWindowSeconds: 0 }), { createdById: builder.id });
  return name;
}

const recordedAnswer = (i: number): TapeEntry => ({
  kind: "model",
  path: "",
  iteration: i,
  response: { text: null, toolCalls: [{ id: `r${i}`, name: "calculator", arguments: `{"expression":"${i}+1"}` }], usage: { inputTokens: 10, outputTokens: 5 }, model: "demo/test" },
});

/** A finished run of the saved graph, then a fork of it at a random step (its steps before that one replayed from the tape, the rest live). */
async function forkOfFinishedRun(ctx: SoakContext, rng: Rng, n: number): Promise<Started[]> {
  const task = [calc(`${n}+1`), `${calc(`${n}+2`)} && tool search_notes {"query":"fork ${n}"}`, `tool lookup_order {"order_id":"${order(n)}"}`, `answer: origin ${n}`].join("\n");
  const startedBy = { id: ctx.builder.id, email: ctx.builder.email };
  const { runId: origin } = await ctx.h.engine.startRun({ graphName: ctx.savedGraph, task, startedBy });
  const originRun: Started = { kind: "plain", model: "demo", workflowId: origin, runId: origin, plan: { cancelAfterMs: null, followUp: null, decision: "approve" } };
  // The origin is waited for with the summary query every 100 ms (as a client's waitForRun does): reads of their own.
  // A hang detector: a worker SIGKILLed while the origin's step is in flight costs a heartbeat timeout and a worker's
  // restart, and a 2-core machine running the soak at half speed cut 60 s once (a fresh-clone run, 2026-11-30).
  const summary = await waitForStatus(ctx.h.engine, origin, ["completed", "failed", "cancelled"], 180_000);
  if (summary.status !== "completed") return [originRun];
  const steps = (await readSpans(ctx.h.db, origin)).filter((s) => s.kind === "inference" || s.kind === "tool");
  const span = rng.pick(steps);
  const edit = span.kind === "tool" && rng.chance(0.5) ? { editedToolResult: `{"edited":${n}}` } : {};
  const fork = await forkRunWith({ db: ctx.h.db, engine: ctx.h.engine }, { runId: origin, spanId: span.id, ...edit }, ctx.builder);
  return [originRun, { kind: "taped fork", model: "demo", workflowId: fork.runId, runId: fork.runId, plan: { cancelAfterMs: rng.chance(0.3) ? rng.int(0, 1_500) : null, followUp: null, decision: "approve" } }];
}

/** An experiment's unit as startTapedRunWith starts it: recorded model answers and a recorded lookup, a live calculator, the gated transfer decided by the tape's policy. */
async function tapedUnit(ctx: SoakContext, rng: Rng, n: number): Promise<Started[]> {
  const transfer = 'tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":1}';
  const task = [`tool lookup_order {"order_id":"${order(n)}"} && ${transfer}`, calc(`${n}*4`), "think 50", `answer: unit ${n}`].join("\n");
  const recorded = rng.int(0, 3);
  const entries: TapeEntry[] = [
    ...Array.from({ length: recorded }, (_, k) => recordedAnswer(k + 1)),
    { kind: "tool_call", tool: "lookup_order", arguments: { order_id: order(n) }, outcome: "ok", result: '{"recorded":true}' },
  ];
  const { runId } = await startTapedRunWith(
    { db: ctx.h.db, engine: ctx.h.engine },
    { graphName: ctx.savedGraph, version: 1, task, context: {}, tape: { entries, settings: { live: { tools: ["calculator"] }, approvals: rng.pick(["approve", "reject"] as const) }, purpose: "experiment" }, startedBy: ctx.builder, origin: { experimentId: `soak-${n}` } },
  );
  return [{ kind: "taped unit", model: "demo", workflowId: runId, runId, plan: { cancelAfterMs: rng.chance(0.4) ? rng.int(0, 2_000) : null, followUp: null, decision: "approve" } }];
}

/** A whole experiment: two versions × five items, units in flight three at a time, maybe cancelled part-way. */
async function experiment(ctx: SoakContext, rng: Rng, n: number): Promise<Started[]> {
  const graph = await twoVersionGraph(ctx.h, ctx.builder);
  const items = Array.from({ length: 5 }, (_, i) =>
    rng.pick([
      item(`tool lookup_order {"order_id":"${order(n * 10 + i)}"}`, { tape: [tapeCall("lookup_order", { order_id: order(n * 10 + i) }, '{"taped":true}')] }),
      item(`${calc(`${i}*${n}`)}\nanswer: ${i * n}`, { output: String(i * n) }),
      item(`think 40\n${calc(`${i}+${n}`)}\n${calc(`${i}-${n}`)}\nanswer: two sums`, { output: "two sums" }),
    ]),
  );
  const name = await dataset(ctx.h, ctx.builder, items);
  const { experimentId } = await startExperiment(ctx.h, ctx.builder, {
    dataset: name,
    targets: [
      { graph, version: 1 },
      { graph, version: 2 },
    ],
    scorers: [{ kind: "contains" }],
    concurrency: 3,
    liveTools: ["calculator"],
  });
  const workflowId = experimentWorkflowId(experimentId);
  return [
    {
      kind: "experiment",
      model: "demo",
      workflowId,
      runId: null,
      plan: { cancelAfterMs: rng.chance(0.5) ? rng.int(500, 4_000) : null, followUp: null, decision: "approve" },
      cancel: async () => void (await ctx.h.client.workflow.getHandle(workflowId).cancel()),
      settled: waitForExperiment(ctx.h, experimentId, ["completed", "cancelled", "failed"], 150_000),
    },
  ];
}

/** A playground call as the web server makes it (a workflow of its own, awaited). */
async function playgroundCall(ctx: SoakContext, model: string, n: number): Promise<Started[]> {
  const input: PlaygroundCallRequest = {
    kind: "call",
    label: `soak ${n}`,
    agentName: "main",
    model,
    temperature: 0,
    maxOutputTokens: 200,
    messages: [{ role: "user", content: `${calc(`${n}+6`)}\nanswer: played ${n}` }],
    tools: [{ name: "calculator", description: "evaluates arithmetic", parameters: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] } }],
    timeoutMs: 60_000,
  };
  // executePlayground names its workflow itself: the soak finds it by its task queue at the end.
  const settled = executePlayground({ temporal: ctx.h.client, taskQueue: ctx.h.taskQueue }, input, 120_000, "soak playground call").catch((error: unknown) => error);
  return [{ kind: "playground", model: model.startsWith("demo/") ? "demo" : "openai-compatible", workflowId: null, runId: null, plan: { cancelAfterMs: null, followUp: null, decision: "approve" }, settled }];
}

export const TAPED_KINDS: SoakKind[] = [
  { name: "taped: forks of finished runs (with their origins)", model: "demo", count: 12, start: forkOfFinishedRun },
  { name: "taped: experiment units started alone", model: "demo", count: 20, start: tapedUnit },
  { name: "experiments: 2 versions × 5 items", model: "demo", count: 3, start: experiment },
  { name: "playground: demo model", model: "demo", count: 12, start: (ctx, _rng, n) => playgroundCall(ctx, "demo/assistant", n) },
  {
    name: "playground: OpenAI-compatible",
    model: "openai-compatible",
    count: 12,
    start: (ctx, _rng, n) => {
      ctx.llm.scriptFor(`soak-play-${n}`, [{ toolCalls: [{ id: `p${n}`, name: "calculator", arguments: '{"expression":"1+1"}' }] }]);
      return playgroundCall(ctx, `openai-compatible/local/soak-play-${n}`, n);
    },
  },
];
