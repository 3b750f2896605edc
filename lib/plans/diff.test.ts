import { describe, expect, it } from "vitest";
import type { Plan } from "../contract/plan";
import { describePlanDiff, diffPlans, isEmptyPlanDiff, planEdges } from "./diff";

const proposed: Plan = {
  nodes: [
    { id: "flights", agent: "flight-researcher", objective: "Find flights", dependsOn: [] },
    { id: "hotels", agent: "hotel-researcher", objective: "Find hotels", dependsOn: [] },
    { id: "days", agent: "itinerary-planner", objective: "Write the days", dependsOn: ["flights", "hotels"] },
  ],
};

describe("diffPlans", () => {
  it("finds nothing between a plan and itself, whatever the order of its nodes", () => {
    const diff = diffPlans(proposed, { nodes: [...proposed.nodes].reverse() });
    expect(isEmptyPlanDiff(diff)).toBe(true);
    expect(describePlanDiff(diff)).toBe("no changes");
  });

  it("lists nodes added, removed and changed, and dependencies added and removed", () => {
    const edited: Plan = {
      nodes: [
        { id: "flights", agent: "flight-researcher", objective: "Find trains", dependsOn: [] },
        { id: "days", agent: "itinerary-planner", objective: "Write the days", dependsOn: ["flights", "museums"] },
        { id: "museums", agent: "hotel-researcher", objective: "Find museums", dependsOn: ["flights"] },
      ],
    };
    const diff = diffPlans(proposed, edited);
    expect(diff.nodesAdded.map((n) => n.id)).toEqual(["museums"]);
    expect(diff.nodesRemoved.map((n) => n.id)).toEqual(["hotels"]);
    expect(diff.nodesChanged).toEqual([{ id: "flights", changes: [{ field: "objective", before: "Find flights", after: "Find trains" }] }]);
    expect(diff.edgesAdded).toEqual([
      { source: "museums", target: "days" },
      { source: "flights", target: "museums" },
    ]);
    expect(diff.edgesRemoved).toEqual([{ source: "hotels", target: "days" }]);
    expect(describePlanDiff(diff)).toBe("1 node added, 1 node removed, 1 node changed, 2 dependencies added, 1 dependency removed");
  });

  it("sees an agent swapped on a node as a change of that node, not a new node", () => {
    const edited: Plan = { nodes: proposed.nodes.map((n) => (n.id === "hotels" ? { ...n, agent: "flight-researcher" } : n)) };
    const diff = diffPlans(proposed, edited);
    expect(diff.nodesAdded).toEqual([]);
    expect(diff.nodesChanged).toEqual([{ id: "hotels", changes: [{ field: "agent", before: "hotel-researcher", after: "flight-researcher" }] }]);
  });
});

describe("planEdges", () => {
  it("draws each dependency from the node needed to the node that needs it", () => {
    expect(planEdges(proposed)).toEqual([
      { source: "flights", target: "days" },
      { source: "hotels", target: "days" },
    ]);
  });
});
