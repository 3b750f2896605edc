// Generated plans and their events for bench/plan-dag-view (node and Chromium).
import type { Plan } from "../../lib/contract/plan";
import type { RunEvent } from "../../lib/contract/types";
import { priceBookOf } from "../../lib/pricing/price-book";

export const AGENTS = ["researcher", "analyst", "writer", "reviewer"];
export const MODELS: Record<string, string> = { researcher: "openai/gpt-4o", analyst: "openai/gpt-4o-mini", writer: "anthropic/claude-sonnet-4", reviewer: "demo/assistant" };
export const PRICES = priceBookOf({ "openai/gpt-4o": { input: 2.5, output: 10 }, "openai/gpt-4o-mini": { input: 0.15, output: 0.6 }, "anthropic/claude-sonnet-4": { input: 3, output: 15 } });

export const SHAPES = ["layered", "fan-in", "chain"] as const;
export type Shape = (typeof SHAPES)[number];

/** layered: ten layers, each node needing two of the layer before; fan-in: every node feeds one last node; chain: one after another. */
export function planOf(shape: Shape, size: number): Plan {
  const node = (i: number, dependsOn: string[]) => ({ id: `n${i}`, agent: AGENTS[i % AGENTS.length] ?? "researcher", objective: `step ${i}: look into part ${i} of the question and report what you found`, dependsOn });
  const nodes = [];
  if (shape === "layered") {
    const width = Math.max(1, Math.round(size / 10));
    for (let i = 0; i < size; i++) nodes.push(node(i, i < width ? [] : [`n${i - width}`, `n${i - width + ((i + 1) % width === 0 ? 1 - width : 1)}`]));
  } else if (shape === "fan-in") {
    for (let i = 0; i < size - 1; i++) nodes.push(node(i, []));
    nodes.push(node(size - 1, Array.from({ length: size - 1 }, (_, i) => `n${i}`)));
  } else {
    for (let i = 0; i < size; i++) nodes.push(node(i, i === 0 ? [] : [`n${i - 1}`]));
  }
  return { nodes };
}

/**
 * The plan run's events: proposed, then the first `finished` nodes started and
 * completed, then the next `running` nodes started. finished = size, running = 0
 * is a run at its end (the most the view ever rebuilds from).
 */
export function eventsOf(plan: Plan, finished = plan.nodes.length, running = 0): RunEvent[] {
  const t0 = Date.UTC(2026, 0, 1);
  let seq = 0;
  const at = () => new Date(t0 + seq * 250).toISOString();
  const events: RunEvent[] = [{ type: "plan_proposed", plan, attempt: 1, seq: ++seq, at: at() }];
  const done = plan.nodes.slice(0, finished);
  for (const n of [...done, ...plan.nodes.slice(finished, finished + running)]) events.push({ type: "plan_node_started", nodeId: n.id, agentName: n.agent, runId: `run.${n.id}`, attempt: 1, seq: ++seq, at: at() });
  for (const n of done) events.push({ type: "plan_node_finished", nodeId: n.id, status: "completed", runId: `run.${n.id}`, usage: { inputTokens: 1200, outputTokens: 300 }, attempts: 1, seq: ++seq, at: at() });
  if (finished === plan.nodes.length) events.push({ type: "plan_finished", outcome: "completed", completed: plan.nodes.length, failed: 0, skipped: 0, seq: ++seq, at: at() });
  return events;
}
