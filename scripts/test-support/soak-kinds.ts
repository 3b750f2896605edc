// The kinds of run the replay soak starts (worker/engine-tests/replay-soak.int.test.ts),
// each on the demo model's script (worker/models/demo-script.ts) or on the
// scripted OpenAI-compatible server, with what the driver then does to it —
// cancel it at a random moment, send a follow-up, approve or reject what it
// asks — drawn from the soak's seed. Taped runs, experiments and playground
// calls are in soak-taped-kinds.ts.
import type { SessionUser } from "../../lib/auth/server/session";
import { singleAgentGraph, type EngineHarness } from "./engine-harness";
import type { ChatCompletionsServer, ScriptedReply } from "./chat-completions-server";
import type { Rng } from "./soak-random";

export type SoakModel = "demo" | "openai-compatible";
export type Decision = "approve" | "reject" | "leave";

export interface RunPlan {
  /** When the driver cancels the run (ms after its start, right after a summary query); null: never. */
  cancelAfterMs: number | null;
  /** The message the driver sends once the run answered (a signal to an open run, a new execution of a closed one); null: none. */
  followUp: string | null;
  /** What the driver does with each approval the run's tree asks for (tool calls and token budgets). */
  decision: Decision;
}

export interface Started {
  kind: string;
  model: SoakModel;
  /** The workflow the soak started (it must be among the executions replayed at the end); null when its door names it (a playground call, found by its task queue). */
  workflowId: string | null;
  /** The run of the runs table the driver reads, cancels and follows up; null for an experiment or a playground call. */
  runId: string | null;
  plan: RunPlan;
  /** How to cancel what is not a run (an experiment). */
  cancel?: () => Promise<void>;
  /** Settles when what is not a run has ended (a playground call). */
  settled?: Promise<unknown>;
}

export interface SoakContext {
  h: EngineHarness;
  llm: ChatCompletionsServer;
  builder: SessionUser;
  /** Saved graphs the taped kinds start from (forks need a saved version). */
  savedGraph: string;
}

export interface SoakKind {
  name: string;
  model: SoakModel;
  /** How many times the soak starts it. */
  count: number;
  start(ctx: SoakContext, rng: Rng, n: number): Promise<Started[]>;
}

const calc = (expression: string) => `tool calculator {"expression":"${expression}"}`;
const transfer = (amount: number) => `tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":${amount}}`;
const order = (n: number) => `A-${String(1000 + (n % 9000)).padStart(4, "0")}`;
/** A random moment in the run's life, or never: short delays land in its start check, longer ones among its steps. */
const maybeCancel = (rng: Rng, probability: number, maxMs = 3_000): number | null => (rng.chance(probability) ? rng.int(0, maxMs) : null);
const followUpTask = (n: number) => `${calc(`${n}+1`)}\nanswer: followed up ${n}`;

async function startRun(ctx: SoakContext, kind: string, model: SoakModel, input: Parameters<EngineHarness["engine"]["startRun"]>[0], plan: RunPlan): Promise<Started[]> {
  const { runId } = await ctx.h.engine.startRun({ ...input, startedBy: { id: ctx.builder.id, email: ctx.builder.email } });
  return [{ kind, model, workflowId: runId, runId, plan }];
}

/** Scripted replies: `steps` rounds of two calculator calls, then an answer; a follow-up's round and answer after it. */
function calculatorReplies(n: number, steps: number): ScriptedReply[] {
  const round = (i: number): ScriptedReply => ({
    toolCalls: [
      { id: `c${n}-${i}a`, name: "calculator", arguments: `{"expression":"${i}+${n}"}` },
      { id: `c${n}-${i}b`, name: "calculator", arguments: `{"expression":"${i}*${n}"}` },
    ],
  });
  return [...Array.from({ length: steps }, (_, i) => round(i)), { content: `done ${n}` }, round(steps), { content: `followed up ${n}` }];
}

const THIRSTY = `tokens 600\nrepeat 2 ${calc("1+1")}\nanswer: done`;

const planGraph = {
  entryAgent: "planner",
  mode: "plan-and-execute" as const,
  plan: { concurrency: 3, nodeRetries: 1 },
  agents: [
    { name: "planner", model: "demo/planner" },
    // With a tool: a child workflow of its own. Without: inline, an activity of the plan's run.
    { name: "counter", model: "demo/counter", description: "adds numbers", tools: ["calculator"] },
    { name: "writer", model: "demo/writer", description: "writes prose" },
  ],
  limits: { followUpWindowSeconds: 0 },
};

export const RUN_KINDS: SoakKind[] = [
  {
    // The shape a user reproduced the defect with: research-loop runs of 25 calculator steps, half cancelled at random.
    name: "plain research-loop (25 calculator steps)",
    model: "demo",
    count: 30,
    start: (ctx, rng, n) =>
      startRun(ctx, "plain", "demo", { graphName: "research-loop", task: `repeat 25 ${calc(`${n}*2`)}\nanswer: done ${n}` }, { cancelAfterMs: maybeCancel(rng, 0.5, 4_000), followUp: rng.chance(0.3) ? followUpTask(n) : null, decision: "approve" }),
  },
  {
    // The start check and one model call: a read and a cancel right behind it land in the first steps of a run.
    name: "plain, a short answer",
    model: "demo",
    count: 50,
    start: (ctx, rng, n) => {
      const graph = singleAgentGraph({ tools: ["calculator"] }, { followUpWindowSeconds: rng.pick([0, 20]) });
      return startRun(ctx, "plain", "demo", { graph, task: `think ${rng.int(20, 300)}\nanswer: quick ${n}` }, { cancelAfterMs: maybeCancel(rng, 0.5, 500), followUp: rng.chance(0.3) ? followUpTask(n) : null, decision: "approve" });
    },
  },
  {
    name: "plain, parallel built-ins, closed after answering",
    model: "demo",
    count: 24,
    start: (ctx, rng, n) => {
      const step = [calc(`${n}-1`), 'tool search_notes {"query":"temporal"}', "tool current_time {}"].join(" && ");
      const graph = singleAgentGraph({ tools: ["calculator", "search_notes", "current_time"] }, { followUpWindowSeconds: 0 });
      // No follow-up window: a follow-up starts a new execution of the closed run.
      return startRun(ctx, "plain", "demo", { graph, task: `think 20\n${step}\nanswer: parallel ${n}` }, { cancelAfterMs: maybeCancel(rng, 0.3), followUp: rng.chance(0.5) ? followUpTask(n) : null, decision: "approve" });
    },
  },
  {
    name: "plain on the OpenAI-compatible server",
    model: "openai-compatible",
    count: 24,
    start: (ctx, rng, n) => {
      const model = `soak-plain-${n}`;
      ctx.llm.scriptFor(model, calculatorReplies(n, 1));
      const graph = singleAgentGraph({ model: `openai-compatible/local/${model}`, tools: ["calculator"] }, { followUpWindowSeconds: 30 });
      return startRun(ctx, "plain", "openai-compatible", { graph, task: `Work out ${n}.` }, { cancelAfterMs: maybeCancel(rng, 0.4, 2_000), followUp: rng.chance(0.3) ? `And once more for ${n}.` : null, decision: "approve" });
    },
  },
  {
    name: "approvals: treasury transfers beside built-ins",
    model: "demo",
    count: 24,
    start: (ctx, rng, n) => {
      const task = `${transfer(1)} && ${calc(`${n}+2`)}\ntool ledger_balance {"account":"operating"}\nanswer: moved ${n}`;
      return startRun(ctx, "approvals", "demo", { graphName: "treasury", task }, { cancelAfterMs: maybeCancel(rng, 0.2, 6_000), followUp: null, decision: rng.pick(["approve", "approve", "reject", "reject", "leave"] as const) });
    },
  },
  {
    name: "approvals on the OpenAI-compatible server",
    model: "openai-compatible",
    count: 10,
    start: (ctx, rng, n) => {
      const model = `soak-approve-${n}`;
      ctx.llm.scriptFor(model, [
        {
          toolCalls: [
            { id: `t${n}`, name: "ledger_transfer", arguments: '{"from_account":"operating","to_account":"refunds","amount":1}' },
            { id: `k${n}`, name: "calculator", arguments: `{"expression":"${n}+3"}` },
          ],
        },
        { content: `moved ${n}` },
      ]);
      const graph = singleAgentGraph({ model: `openai-compatible/local/${model}`, tools: ["ledger_transfer", "calculator"] }, { followUpWindowSeconds: 0 });
      return startRun(ctx, "approvals", "openai-compatible", { graph, task: `Move 1 for ${n}.` }, { cancelAfterMs: maybeCancel(rng, 0.2, 6_000), followUp: null, decision: rng.pick(["approve", "reject"] as const) });
    },
  },
  {
    name: "budget asks (onBudget: ask)",
    model: "demo",
    count: 16,
    start: (ctx, rng) => {
      const graph = singleAgentGraph({ tools: ["calculator"] }, { tokenBudget: 1000, onBudget: "ask", followUpWindowSeconds: 0 });
      return startRun(ctx, "budget", "demo", { graph, task: THIRSTY }, { cancelAfterMs: maybeCancel(rng, 0.15, 5_000), followUp: null, decision: rng.pick(["approve", "approve", "reject"] as const) });
    },
  },
  {
    name: "sub-agent conversations: support-triage",
    model: "demo",
    count: 16,
    start: (ctx, rng, n) => {
      const task = [`message billing: ${calc(`${n}/2`)}`, `reply billing: ${calc(`${n}+5`)}`, `tool lookup_order {"order_id":"${order(n)}"}`, `answer: triaged ${n}`].join("\n");
      return startRun(ctx, "sub-agent", "demo", { graphName: "support-triage", task }, { cancelAfterMs: maybeCancel(rng, 0.3), followUp: rng.chance(0.3) ? followUpTask(n) : null, decision: "approve" });
    },
  },
  {
    name: "sub-agent conversation led on the OpenAI-compatible server",
    model: "openai-compatible",
    count: 6,
    start: (ctx, rng, n) => {
      const model = `soak-lead-${n}`;
      ctx.llm.scriptFor(model, [{ toolCalls: [{ id: `m${n}`, name: "message_agent", arguments: JSON.stringify({ agent_name: "helper", message: calc(`${n}*7`) }) }] }, { content: `consulted ${n}` }]);
      const graph = {
        entryAgent: "lead",
        agents: [
          { name: "lead", model: `openai-compatible/local/${model}`, subAgents: ["helper"] },
          { name: "helper", model: "demo/helper", description: "does sums", tools: ["calculator"] },
        ],
        limits: { followUpWindowSeconds: 0, subAgentIdleTimeoutSeconds: 2 },
      };
      return startRun(ctx, "sub-agent", "openai-compatible", { graph, task: `Ask the helper about ${n}.` }, { cancelAfterMs: maybeCancel(rng, 0.3), followUp: null, decision: "approve" });
    },
  },
  {
    name: "routed: help-desk (confident, fallback, re-route)",
    model: "demo",
    count: 20,
    start: (ctx, rng, n) => {
      const task = rng.pick([
        `route billing 0.9\n@billing: ${calc(`${n}*3`)}\n@billing: answer: billed ${n}`,
        `route billing 0.4 fallback technical\n@technical: tool search_notes {"query":"router"}\n@technical: answer: fixed ${n}`,
        `route technical 0.9\nroute billing 0.8\n@technical: fail model\n@billing: ${calc(`${n}+9`)}\n@billing: answer: rerouted ${n}`,
      ]);
      return startRun(ctx, "routed", "demo", { graphName: "help-desk", task }, { cancelAfterMs: maybeCancel(rng, 0.3), followUp: null, decision: "approve" });
    },
  },
  {
    name: "handoffs: front-desk (summary context), some with a gated transfer",
    model: "demo",
    count: 20,
    start: (ctx, rng, n) => {
      const receiver = rng.chance(0.5) ? `@refund-specialist: ${transfer(1)}\n@refund-specialist: answer: refunded ${n}` : `@refund-specialist: tool ledger_balance {"account":"refunds"}\n@refund-specialist: answer: checked ${n}`;
      const task = `tool lookup_order {"order_id":"${order(n)}"}\nhandoff refund-specialist: the customer wants money back\n${receiver}`;
      return startRun(ctx, "handoff", "demo", { graphName: "front-desk", task }, { cancelAfterMs: maybeCancel(rng, 0.25), followUp: null, decision: rng.pick(["approve", "reject"] as const) });
    },
  },
  {
    name: "plans: a child node (with a tool) and inline nodes",
    model: "demo",
    count: 16,
    start: (ctx, rng, n) => {
      const plan = {
        nodes: [
          { id: "count", agent: "counter", objective: `count ${n}`, dependsOn: [] },
          { id: "draft", agent: "writer", objective: "draft", dependsOn: [] },
          { id: "final", agent: "writer", objective: "finish", dependsOn: ["count", "draft"] },
        ],
      };
      const task = `Plan ${n}\n@planner: return ${JSON.stringify(plan)}\n@counter: ${calc(`${n}+4`)}\n@counter: answer: counted\n@writer: think 30\n@writer: answer: written`;
      return startRun(ctx, "plan", "demo", { graph: planGraph, task }, { cancelAfterMs: maybeCancel(rng, 0.3), followUp: null, decision: "approve" });
    },
  },
  {
    name: "plans: trip-planner (inline nodes, plain English)",
    model: "demo",
    count: 8,
    start: (ctx, rng, n) =>
      startRun(ctx, "plan", "demo", { graphName: "trip-planner", task: `Plan a ${2 + (n % 3)}-day trip to Lisbon` }, { cancelAfterMs: maybeCancel(rng, 0.3), followUp: null, decision: "approve" }),
  },
];
