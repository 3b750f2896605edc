import { describe, expect, it } from "vitest";
import type { Plan } from "../contract/plan";
import type { RunEvent } from "../contract/types";
import { buildPlanView, followTail, mergePlanEvents, mergeStretch, nodeCost, nodeDurationMs, planProgressLine, planRounds, type PlanEvent } from "./plan-view";
import { priceBookOf } from "../pricing/price-book";

const tripPlan: Plan = {
  nodes: [
    { id: "flights", agent: "researcher", objective: "find flights to Lisbon", dependsOn: [] },
    { id: "hotels", agent: "researcher", objective: "find hotels in Lisbon", dependsOn: [] },
    { id: "itinerary", agent: "planner", objective: "write the itinerary", dependsOn: ["flights", "hotels"] },
  ],
};

/** An event without its place in the ledger (Omit distributed over the union). */
type EventBody = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, "seq" | "at"> : never) : never;

/** Events in order, numbered from `first`, one second apart. */
function events(bodies: EventBody[], first = 1): RunEvent[] {
  return bodies.map((body, i) => ({ ...body, seq: first + i, at: new Date(Date.UTC(2026, 0, 1, 0, 0, first + i)).toISOString() }) as RunEvent);
}

const usage = { inputTokens: 100, outputTokens: 20 };

describe("buildPlanView", () => {
  it("is null before any plan is proposed", () => {
    expect(buildPlanView(events([{ type: "run_started", agentName: "lead", task: "trip", depth: 0 }]))).toBeNull();
  });

  it("starts every node pending, with an edge per dependency", () => {
    const view = buildPlanView(events([{ type: "plan_proposed", plan: tripPlan, attempt: 1 }]));
    expect(view?.nodes.map((n) => [n.id, n.status])).toEqual([
      ["flights", "pending"],
      ["hotels", "pending"],
      ["itinerary", "pending"],
    ]);
    expect(view?.edges).toEqual([
      { source: "flights", target: "itinerary" },
      { source: "hotels", target: "itinerary" },
    ]);
    expect(view?.finished).toBeNull();
  });

  it("follows each node through running to completed with its times, duration, usage and child run", () => {
    const view = buildPlanView(
      events([
        { type: "plan_proposed", plan: tripPlan, attempt: 1 },
        { type: "plan_node_started", nodeId: "flights", agentName: "researcher", runId: "run-f", attempt: 1 },
        { type: "plan_node_started", nodeId: "hotels", agentName: "researcher", runId: "run-h", attempt: 1 },
        { type: "iteration_started", iteration: 1 },
        { type: "plan_node_finished", nodeId: "flights", status: "completed", runId: "run-f", usage, attempts: 1 },
      ]),
    );
    const flights = view?.nodes.find((n) => n.id === "flights");
    expect(flights).toMatchObject({ status: "completed", runId: "run-f", startedAt: "2026-01-01T00:00:02.000Z", endedAt: "2026-01-01T00:00:05.000Z", durationMs: 3000, usage, attempts: 1, reason: null });
    expect(view?.nodes.find((n) => n.id === "hotels")).toMatchObject({ status: "running", runId: "run-h", durationMs: null });
    expect(view?.counts).toEqual({ pending: 1, running: 1, awaiting_approval: 0, completed: 1, failed: 0, skipped: 0, cancelled: 0 });
    expect(planProgressLine(view!)).toBe("1 of 3 completed · 1 running · 1 pending");
  });

  it("shows a running node whose run waits for a decision as waiting for approval, with its running time", () => {
    const started = events([
      { type: "plan_proposed", plan: tripPlan, attempt: 1 },
      { type: "plan_node_started", nodeId: "flights", agentName: "researcher", runId: "run-f", attempt: 1 },
      { type: "plan_node_started", nodeId: "hotels", agentName: "researcher", runId: "run-h", attempt: 1 },
    ]);
    const view = buildPlanView(started, new Set(["run-h", "some-other-run"]));
    expect(view?.nodes.map((n) => [n.id, n.status])).toEqual([
      ["flights", "running"],
      ["hotels", "awaiting_approval"],
      ["itinerary", "pending"],
    ]);
    expect(view?.counts).toMatchObject({ running: 1, awaiting_approval: 1, pending: 1 });
    expect(planProgressLine(view!)).toBe("0 of 3 completed · 1 running · 1 waiting for approval · 1 pending");
    const hotels = view!.nodes.find((n) => n.id === "hotels")!;
    expect(nodeDurationMs(hotels, Date.parse("2026-01-01T00:00:13.000Z"))).toBe(10_000);
    // Once it finished, the event decides, whatever the (older) header said.
    const done = buildPlanView([...started, ...events([{ type: "plan_node_finished", nodeId: "hotels", status: "completed", runId: "run-h", usage, attempts: 1 }], 4)], new Set(["run-h"]));
    expect(done?.nodes.find((n) => n.id === "hotels")?.status).toBe("completed");
  });

  it("keeps the first attempt's start across retries and shows the latest attempt's child run", () => {
    const view = buildPlanView(
      events([
        { type: "plan_proposed", plan: tripPlan, attempt: 1 },
        { type: "plan_node_started", nodeId: "flights", agentName: "researcher", runId: "run-f1", attempt: 1 },
        { type: "plan_node_started", nodeId: "flights", agentName: "researcher", runId: "run-f2", attempt: 2 },
        { type: "plan_node_finished", nodeId: "flights", status: "failed", runId: "run-f2", reason: "model_error: down", attempts: 2 },
        { type: "plan_node_finished", nodeId: "itinerary", status: "skipped", runId: null, reason: "dependency flights failed", attempts: 0 },
        { type: "plan_finished", outcome: "partially_failed", completed: 1, failed: 1, skipped: 1 },
      ]),
    );
    expect(view?.nodes.find((n) => n.id === "flights")).toMatchObject({ status: "failed", runId: "run-f2", attempts: 2, durationMs: 2000, reason: "model_error: down" });
    expect(view?.nodes.find((n) => n.id === "itinerary")).toMatchObject({ status: "skipped", runId: null, startedAt: null, durationMs: null, reason: "dependency flights failed" });
    expect(view?.finished).toEqual({ outcome: "partially_failed", completed: 1, failed: 1, skipped: 1 });
  });

  it("keeps each turn's plan apart: the latest by default, an earlier one by its round", () => {
    const rome: Plan = { nodes: [{ id: "flights", agent: "researcher", objective: "flights to Rome", dependsOn: [] }] };
    const all = events([
      { type: "plan_proposed", plan: tripPlan, attempt: 1 },
      { type: "plan_node_started", nodeId: "flights", agentName: "researcher", runId: "r.node-flights-1", attempt: 1 },
      { type: "plan_node_finished", nodeId: "flights", status: "completed", runId: "r.node-flights-1", attempts: 1 },
      { type: "plan_finished", outcome: "partially_failed", completed: 1, failed: 0, skipped: 1 },
      { type: "plan_proposed", plan: rome, attempt: 1 },
      { type: "plan_node_started", nodeId: "flights", agentName: "researcher", runId: "r.p2.node-flights-1", attempt: 1 },
    ]);
    expect(planRounds(all).map((r) => r.length)).toEqual([4, 2]);
    const latest = buildPlanView(all);
    expect(latest?.nodes.map((n) => [n.id, n.status, n.runId])).toEqual([["flights", "running", "r.p2.node-flights-1"]]);
    expect(latest?.finished).toBeNull();
    const first = buildPlanView(all, new Set(), 0);
    expect(first?.nodes.find((n) => n.id === "flights")).toMatchObject({ status: "completed", runId: "r.node-flights-1", objective: expect.not.stringContaining("Rome") });
    expect(first?.finished?.outcome).toBe("partially_failed");
  });

  it("shows a stopped plan's nodes as cancelled, with why it stopped", () => {
    const view = buildPlanView(
      events([
        { type: "plan_proposed", plan: tripPlan, attempt: 1 },
        { type: "plan_node_started", nodeId: "flights", agentName: "researcher", runId: "run-f1", attempt: 1 },
        { type: "plan_node_started", nodeId: "hotels", agentName: "researcher", runId: "run-h1", attempt: 1 },
        { type: "plan_node_finished", nodeId: "hotels", status: "completed", runId: "run-h1", attempts: 1 },
        { type: "plan_node_finished", nodeId: "flights", status: "cancelled", runId: "run-f1", reason: "cancelled: the run was cancelled", attempts: 1 },
        { type: "plan_node_finished", nodeId: "itinerary", status: "cancelled", runId: null, reason: "cancelled: the run was cancelled", attempts: 0 },
        { type: "plan_finished", outcome: "cancelled", completed: 1, failed: 0, skipped: 0, cancelled: 2, reason: "cancelled: the run was cancelled" },
      ]),
    );
    expect(view?.nodes.find((n) => n.id === "flights")).toMatchObject({ status: "cancelled", durationMs: expect.any(Number) });
    expect(view?.counts.cancelled).toBe(2);
    expect(view?.finished).toMatchObject({ outcome: "cancelled", cancelled: 2, reason: "cancelled: the run was cancelled" });
    expect(planProgressLine(view!)).toContain("2 cancelled");
  });

  it("shows the last plan proposed, and ignores events of earlier plans and of unknown nodes", () => {
    const repaired: Plan = { nodes: [{ id: "only", agent: "researcher", objective: "do it all", dependsOn: [] }] };
    const view = buildPlanView(
      events([
        { type: "plan_proposed", plan: tripPlan, attempt: 1 },
        { type: "plan_node_started", nodeId: "only", agentName: "researcher", runId: "stale", attempt: 1 },
        { type: "plan_proposed", plan: repaired, attempt: 2 },
        { type: "plan_node_started", nodeId: "ghost", agentName: "researcher", runId: "run-g", attempt: 1 },
      ]),
    );
    expect(view?.planAttempt).toBe(2);
    expect(view?.planSeq).toBe(3);
    expect(view?.nodes).toHaveLength(1);
    expect(view?.nodes[0]).toMatchObject({ id: "only", status: "pending", runId: null });
  });

  it("reads events given out of order by their seq", () => {
    const ordered = events([
      { type: "plan_proposed", plan: tripPlan, attempt: 1 },
      { type: "plan_node_started", nodeId: "flights", agentName: "researcher", runId: "run-f", attempt: 1 },
      { type: "plan_node_finished", nodeId: "flights", status: "completed", runId: "run-f", attempts: 1 },
    ]);
    expect(buildPlanView([...ordered].reverse())?.nodes[0]?.status).toBe("completed");
  });

  it("builds a 500-node plan with every node finished", () => {
    // A layered plan: 10 layers of 50, each node depending on two of the layer before.
    const plan: Plan = { nodes: [] };
    for (let layer = 0; layer < 10; layer++) {
      for (let k = 0; k < 50; k++) {
        const dependsOn = layer === 0 ? [] : [`n${layer - 1}_${k}`, `n${layer - 1}_${(k + 1) % 50}`];
        plan.nodes.push({ id: `n${layer}_${k}`, agent: k % 2 ? "writer" : "researcher", objective: `task ${layer}.${k}`, dependsOn });
      }
    }
    const bodies: EventBody[] = [{ type: "plan_proposed", plan, attempt: 1 }];
    for (const node of plan.nodes) bodies.push({ type: "plan_node_started", nodeId: node.id, agentName: node.agent, runId: `run-${node.id}`, attempt: 1 });
    plan.nodes.forEach((node, i) => bodies.push({ type: "plan_node_finished", nodeId: node.id, status: i === 499 ? "failed" : "completed", runId: `run-${node.id}`, usage, attempts: 1 }));
    const view = buildPlanView(events(bodies));
    expect(view?.nodes).toHaveLength(500);
    expect(view?.edges).toHaveLength(900);
    expect(view?.counts).toEqual({ pending: 0, running: 0, awaiting_approval: 0, completed: 499, failed: 1, skipped: 0, cancelled: 0 });
    expect(view?.nodes.every((n) => n.runId === `run-${n.id}` && n.durationMs === 500_000)).toBe(true);
  });
});

describe("mergePlanEvents", () => {
  const proposed = events([{ type: "plan_proposed", plan: tripPlan, attempt: 1 }]) as PlanEvent[];

  it("adds new plan events once and keeps the same list when nothing is new", () => {
    const later = events(
      [
        { type: "iteration_started", iteration: 2 },
        { type: "plan_node_started", nodeId: "flights", agentName: "researcher", runId: "run-f", attempt: 1 },
      ],
      2,
    );
    const merged = mergePlanEvents(proposed, later);
    expect(merged.map((e) => e.seq)).toEqual([1, 3]);
    expect(mergePlanEvents(merged, later)).toBe(merged);
  });
});

describe("node figures", () => {
  it("a running node's duration runs up to now; a pending one has none", () => {
    const start = "2026-01-01T00:00:00.000Z";
    expect(nodeDurationMs({ status: "running", startedAt: start, durationMs: null }, Date.parse(start) + 1500)).toBe(1500);
    expect(nodeDurationMs({ status: "pending", startedAt: null, durationMs: null }, 0)).toBeNull();
    expect(nodeDurationMs({ status: "completed", startedAt: start, durationMs: 42 }, 1e13)).toBe(42);
  });

  it("costs a node's tokens at its agent's model price; unknown models have no price", () => {
    const prices = priceBookOf({ "openai/gpt-4o": { input: 2.5, output: 10 } });
    const models = { researcher: "openai/gpt-4o", writer: "openai/unpriced" };
    expect(nodeCost({ agent: "researcher", usage: { inputTokens: 1_000_000, outputTokens: 100_000 } }, models, prices)).toBeCloseTo(3.5);
    expect(nodeCost({ agent: "writer", usage }, models, prices)).toBeNull();
    expect(nodeCost({ agent: "nobody", usage }, models, prices)).toBeNull();
    expect(nodeCost({ agent: "writer", usage: null }, models, prices)).toBe(0);
  });
});

describe("following the live tail", () => {
  const started = (nodeId: string): EventBody => ({ type: "plan_node_started", nodeId, agentName: "researcher", runId: `run-${nodeId}`, attempt: 1 });
  const read = events([{ type: "plan_proposed", plan: tripPlan, attempt: 1 }]) as PlanEvent[];
  const known = { events: read, through: 10 };

  it("merges a window that follows on from what the page read, and ignores one it has seen", () => {
    const window = events([{ type: "iteration_started", iteration: 1 }, started("flights")], 11);
    const step = followTail(known, window);
    expect(step.kind).toBe("merge");
    if (step.kind !== "merge") return;
    expect(step.next.through).toBe(12);
    expect(step.next.events.map((e) => e.type)).toEqual(["plan_proposed", "plan_node_started"]);
    expect(followTail(step.next, window).kind, "the same window again brings nothing").toBe("none");
    expect(followTail(known, []).kind).toBe("none");
  });

  it("asks for the stretch a window dropped (one poll brought more than the tail keeps), then merges both", () => {
    const window = events([started("hotels")], 400);
    expect(followTail(known, window)).toEqual({ kind: "gap", since: 10, until: 399 });
    const stretch = events([started("flights"), { type: "iteration_started", iteration: 2 }], 11);
    const next = mergeStretch(known, stretch, window);
    expect(next.through).toBe(400);
    expect(buildPlanView(next.events)?.counts.running, "both nodes' starts are known").toBe(2);
  });
});
