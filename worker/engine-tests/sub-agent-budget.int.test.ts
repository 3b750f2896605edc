// Sub-agent conversations draw from the run tree's token budget (issue 22 §1):
// each turn a parent sends may spend what the parent's run has left, not the
// whole graph budget again, so a parent and its sub-agents together keep to it
// (give or take the one model call that crosses the limit).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { inputQuery } from "../../lib/contract/definitions";
import type { RunEvent, RunSummary, TokenUsage, TraceNode } from "../../lib/contract/types";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.stop());

const BUDGET = 3000;

/**
 * The lead's own calls report 800 output tokens each; the worker's calls are
 * cheap in output but each reads a long system prompt (the demo model counts
 * about four characters a token), so a worker that takes many tool steps
 * spends several hundred tokens per call, well past what the lead has left.
 */
const graph = {
  entryAgent: "lead",
  agents: [
    { name: "lead", model: "demo/lead", subAgents: ["worker", "helper"] },
    { name: "worker", model: "demo/worker", tools: ["calculator"], systemPrompt: `You are a careful worker. ${"Check every figure twice. ".repeat(60)}` },
    { name: "helper", model: "demo/helper" },
  ],
  limits: { tokenBudget: BUDGET, subAgentIdleTimeoutSeconds: 60, followUpWindowSeconds: 0 },
};

/** The worker's task: many tool steps, each a model call that reads its long system prompt. */
const THIRSTY = 'repeat 12 tool calculator {"expression":"1+1"}';

const total = (usage: TokenUsage) => usage.inputTokens + usage.outputTokens;

function eventsOf<T extends RunEvent["type"]>(events: RunEvent[], type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);
}

/** The limit a budget_exceeded failure names ("the run used X tokens of its L-token budget"). */
function limitOf(summary: RunSummary): number {
  const match = /of its (\d+)-token budget/.exec(summary.error?.message ?? "");
  if (!match) throw new Error(`no token limit in ${JSON.stringify(summary.error)}`);
  return Number(match[1]);
}

/** The tokens of each model call of the run (inference spans), in the order they started. */
async function calls(runId: string): Promise<number[]> {
  const spans: TraceNode[] = [];
  const walk = (nodes: TraceNode[]) => nodes.forEach((n) => (spans.push(n), walk(n.children)));
  walk(await h.engine.getTrace(runId));
  const inference = spans.filter((s) => s.kind === "inference" && s.tokens).sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));
  expect(inference.length).toBeGreaterThan(0);
  return inference.map((s) => total(s.tokens!));
}

/** The most tokens one model call of the run used. */
async function largestCall(runId: string): Promise<number> {
  return Math.max(...(await calls(runId)));
}

/** The lead's run and its one conversation's run, once both have failed. */
async function failedTree(runId: string) {
  const lead = await waitForStatus(h.engine, runId, ["failed"], 45_000);
  const events = await h.engine.getEvents(runId);
  const conversationId = eventsOf(events, "sub_agent_message")[0]?.conversationId;
  if (!conversationId) throw new Error("the lead messaged no sub-agent");
  const worker = await waitForStatus(h.engine, conversationId, ["failed"]);
  // The lead's usage includes the worker's (its replies' usage): what the lead spent itself is the rest.
  const leadOwn = total(lead.usage) - total(worker.usage);
  return { lead, worker, leadOwn, events, conversationId };
}

describe("sub-agent conversations draw from the run tree's token budget", () => {
  it("a conversation's first turn may spend only what its parent has left; the tree keeps to the budget", async () => {
    const { runId } = await h.engine.startRun({ graph, task: `tokens 800\nmessage worker: ${THIRSTY}\nanswer: done` });
    const { lead, worker, leadOwn, events } = await failedTree(runId);

    // The worker fails at its share: what the lead had left when it started the conversation, not the graph's budget.
    expect(worker.error?.reason).toBe("budget_exceeded");
    const limit = limitOf(worker);
    expect(leadOwn, "the lead spent part of the budget before it messaged the worker").toBeGreaterThan(0);
    expect(limit).toBe(BUDGET - leadOwn);
    expect(limit).toBeLessThan(BUDGET);
    expect(eventsOf(await h.engine.getEvents(worker.runId), "budget_warning")).toEqual([expect.objectContaining({ limit })]);

    // The lead gets the failed reply, counts its usage, and fails its own budget check.
    expect(eventsOf(events, "sub_agent_reply")).toEqual([expect.objectContaining({ isComplete: true })]);
    expect(lead.error?.reason).toBe("budget_exceeded");
    expect(limitOf(lead)).toBe(BUDGET);

    // The whole tree stays within the budget but for the one call that crossed it.
    expect(total(lead.usage)).toBeGreaterThanOrEqual(BUDGET);
    expect(total(lead.usage)).toBeLessThanOrEqual(BUDGET + (await largestCall(worker.runId)));
  });

  it("a later turn's limit is what the conversation spent plus what the parent has left then", async () => {
    // Turn 1 is cheap; by turn 2 the lead has spent more of the budget, and turn 2 may spend only what is left.
    const task = [`tokens 800`, `message worker: answer: ready`, `reply worker: ${THIRSTY}`, `answer: done`].join("\n");
    const { runId } = await h.engine.startRun({ graph, task });
    const { lead, worker, leadOwn, events, conversationId } = await failedTree(runId);

    expect(eventsOf(events, "sub_agent_message").map((e) => [e.conversationId, e.turn])).toEqual([
      [conversationId, 1],
      [conversationId, 2],
    ]);
    const replies = eventsOf(events, "sub_agent_reply");
    expect(replies.map((r) => [r.turn, r.isComplete])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(worker.error?.reason).toBe("budget_exceeded");
    // Its limit over both turns: what turn 1 spent plus what the lead had left when it sent turn 2, i.e. the
    // budget less what the lead spent itself (its two model calls before turn 2; it spent nothing after).
    const limit = limitOf(worker);
    expect(limit).toBe(BUDGET - leadOwn);
    expect(limit).toBeLessThan(BUDGET);
    // Its first turn's share (its starting budget) was what the lead had left after one call: turn 2's limit,
    // after the lead's second call, is lower still, so the limit over both turns shrank as the lead spent.
    const input = await h.client.workflow.getHandle(conversationId).query(inputQuery);
    const firstShare = input.graph.limits.tokenBudget;
    expect(input.graph.limits.onBudget).toBe("fail");
    expect(firstShare).toBeLessThan(BUDGET);
    expect(limit).toBeLessThan(firstShare);
    expect(eventsOf(await h.engine.getEvents(worker.runId), "user_message").map((e) => e.content)).toEqual([THIRSTY]);

    expect(lead.error?.reason).toBe("budget_exceeded");
    expect(total(lead.usage)).toBeLessThanOrEqual(BUDGET + (await largestCall(worker.runId)));
    // The failed conversation is over for the lead too.
    await eventually(() => h.engine.getConversations(runId), (list) => list[0]?.isActive === false, 20_000, "the conversation to end");
  });

  it("conversations a response starts at once split what the parent has left", async () => {
    const { runId } = await h.engine.startRun({ graph, task: "tokens 800\nmessage worker: answer: a && message helper: answer: b\nanswer: done" });
    const lead = await waitForStatus(h.engine, runId, ["completed"], 45_000);
    expect(lead.output).toBe("done");
    const conversations = eventsOf(await h.engine.getEvents(runId), "sub_agent_message").map((e) => e.conversationId);
    expect(conversations).toHaveLength(2);
    const budgets = await Promise.all(conversations.map(async (id) => (await h.client.workflow.getHandle(id).query(inputQuery)).graph.limits.tokenBudget));
    // What the lead had left after its first call, in two equal shares (the first call would otherwise take it all).
    const [first] = await calls(runId);
    const half = Math.floor((BUDGET - first!) / 2);
    expect(budgets).toEqual([half, half]);
    expect(total(lead.usage)).toBeLessThan(BUDGET);
  });
});
