import { describe, expect, it } from "vitest";
import type { Plan } from "../contract/plan";
import { addDependency, addPlanNode, checkEditedPlan, removeDependency, removePlanNode, suggestNodeId, updatePlanNode } from "./edit";

const limits = { agents: ["flight-researcher", "hotel-researcher", "itinerary-planner"], maxNodes: 4 };
const plan: Plan = {
  nodes: [
    { id: "flights", agent: "flight-researcher", objective: "Find flights", dependsOn: [] },
    { id: "days", agent: "itinerary-planner", objective: "Write the days", dependsOn: ["flights"] },
  ],
};

describe("editing a plan", () => {
  it("adds a node with a free id, draws a dependency to it once, and removes both again", () => {
    const id = suggestNodeId(plan, "hotel-researcher");
    expect(id).toBe("hotel-researcher");
    const added = addDependency(addDependency(addPlanNode(plan, { id, agent: "hotel-researcher", objective: "Find hotels" }), id, "days"), id, "days");
    expect(added.nodes.find((n) => n.id === "days")?.dependsOn).toEqual(["flights", "hotel-researcher"]);
    expect(checkEditedPlan(added, limits).problems).toEqual([]);
    expect(removeDependency(added, id, "days").nodes.find((n) => n.id === "days")?.dependsOn).toEqual(["flights"]);
    const removed = removePlanNode(added, id);
    expect(removed).toEqual(plan);
  });

  it("suggests the next free id when the agent's name is taken", () => {
    const twice = addPlanNode(plan, { id: "flight-researcher", agent: "flight-researcher", objective: "x" });
    expect(suggestNodeId(twice, "flight-researcher")).toBe("flight-researcher-2");
    expect(suggestNodeId(plan, "a planner!")).toBe("a-planner");
  });

  it("removing a node removes the dependencies on it", () => {
    expect(removePlanNode(plan, "flights").nodes).toEqual([{ id: "days", agent: "itinerary-planner", objective: "Write the days", dependsOn: [] }]);
  });

  it("changes a node's agent or objective and nothing else", () => {
    const changed = updatePlanNode(plan, "flights", { objective: "Find trains" });
    expect(changed.nodes[0]).toEqual({ ...plan.nodes[0], objective: "Find trains" });
    expect(changed.nodes[1]).toBe(plan.nodes[1]);
  });
});

describe("checkEditedPlan", () => {
  it("names a drawn cycle, with its nodes and the edges that close it", () => {
    const cyclic = addDependency(plan, "days", "flights");
    const check = checkEditedPlan(cyclic, limits);
    expect(check.problems).toEqual(["plan.cycle: flights → days → flights"]);
    expect(check.cycles).toEqual([["flights", "days", "flights"]]);
    expect([...check.cycleNodes].sort()).toEqual(["days", "flights"]);
    expect([...check.cycleEdges].sort()).toEqual(["days->flights", "flights->days"]);
  });

  it("places an unknown agent and an empty objective on their node", () => {
    const check = checkEditedPlan(updatePlanNode(updatePlanNode(plan, "days", { agent: "chef" }), "flights", { objective: " " }), limits);
    expect(check.nodeProblems.get("days")).toEqual(['unknown agent "chef" (agents: flight-researcher, hotel-researcher, itinerary-planner)']);
    expect(check.nodeProblems.get("flights")).toEqual(["say what this node must accomplish"]);
    expect(check.problems).toHaveLength(2);
  });

  it("refuses more nodes than the graph allows, and an empty plan", () => {
    let big = plan;
    for (let i = 0; i < 3; i++) big = addPlanNode(big, { id: `n${i}`, agent: "hotel-researcher", objective: "more" });
    expect(checkEditedPlan(big, limits).problems).toEqual(["plan.nodes: the plan has 5 nodes; at most 4"]);
    expect(checkEditedPlan({ nodes: [] }, limits).problems).toEqual(["plan.nodes: the plan has no nodes"]);
  });

  it("without the graph's limits, still refuses what any plan must not be (a cycle), and accepts its own agents", () => {
    expect(checkEditedPlan(plan, null).problems).toEqual([]);
    expect(checkEditedPlan(addDependency(plan, "days", "flights"), null).cycles).toHaveLength(1);
  });
});
