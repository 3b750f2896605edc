import { describe, expect, it } from "vitest";
import type { PlanEvent } from "../runs/plan-view";
import { planAwaitsApproval } from "./awaiting";

const plan = { nodes: [{ id: "a", agent: "x", objective: "o", dependsOn: [] }] };
const at = "2026-01-01T00:00:00.000Z";
const proposed: PlanEvent = { type: "plan_proposed", plan, attempt: 1, seq: 1, at };
const started: PlanEvent = { type: "plan_node_started", nodeId: "a", agentName: "x", runId: "r.a", attempt: 1, seq: 2, at };

describe("planAwaitsApproval", () => {
  it("is true while the latest plan is proposed, nothing started, and the plan run waits for a decision", () => {
    expect(planAwaitsApproval([proposed], "r", ["r"])).toBe(true);
  });
  it("is false when the run does not wait, or once a node started (a node's own approval is not the plan's)", () => {
    expect(planAwaitsApproval([proposed], "r", [])).toBe(false);
    expect(planAwaitsApproval([proposed, started], "r", ["r", "r.a"])).toBe(false);
  });
  it("is true again when a follow-up proposes a new plan that waits", () => {
    const finished = { type: "plan_finished", seq: 3, at } as unknown as PlanEvent;
    expect(planAwaitsApproval([proposed, started, finished, { ...proposed, seq: 4 }], "r", ["r"])).toBe(true);
    expect(planAwaitsApproval([proposed, started, finished], "r", ["r"])).toBe(false);
  });
});
