import { describe, expect, it } from "vitest";
import type { Plan } from "./plan";
import { approvedPlan, isPlanApproval, planApprovalSchema, planEditProblems, planLimitsFor, planLimitsOf, planRequestSentence, proposedPlan, PLAN_APPROVAL_TOOL } from "./plan-approval";
import tripPlanner from "../agents/demo/trip-planner.json";
import type { AgentGraph } from "../agents/schemas";

const limits = { agents: ["flight-researcher", "hotel-researcher", "itinerary-planner"], maxNodes: 3 };
const plan: Plan = {
  nodes: [
    { id: "flights", agent: "flight-researcher", objective: "Find flights", dependsOn: [] },
    { id: "hotels", agent: "hotel-researcher", objective: "Find hotels", dependsOn: [] },
    { id: "itinerary", agent: "itinerary-planner", objective: "Write the days", dependsOn: ["flights", "hotels"] },
  ],
};
const decidedBy = { id: "u", email: "a@zap.local", role: "approver" };

describe("plan approvals", () => {
  it("take their limits from the graph: every agent but the planner, and its maxNodes", () => {
    expect(planLimitsFor(tripPlanner as unknown as AgentGraph)).toEqual({ agents: ["flight-researcher", "hotel-researcher", "itinerary-planner"], maxNodes: 20 });
  });

  it("accept an edited plan the graph can run: nodes removed, objectives changed", () => {
    expect(planEditProblems({ plan }, limits)).toEqual([]);
    const fewer = { nodes: [{ ...plan.nodes[0]!, objective: "Only direct flights" }] };
    expect(planEditProblems({ plan: fewer }, limits)).toEqual([]);
  });

  it("refuse an edit that is not a valid plan, naming where", () => {
    const [a, b, c] = plan.nodes as [Plan["nodes"][number], Plan["nodes"][number], Plan["nodes"][number]];
    expect(planEditProblems({ plan: { nodes: [{ ...a, dependsOn: ["hotels"] }, { ...b, dependsOn: ["flights"] }] } }, limits)).toEqual(["plan.cycle: flights → hotels → flights"]);
    expect(planEditProblems({ plan: { nodes: [{ ...a, agent: "chef" }] } }, limits)).toEqual([
      'plan.nodes[0].agent: unknown agent "chef" (agents: flight-researcher, hotel-researcher, itinerary-planner)',
    ]);
    expect(planEditProblems({ plan: { nodes: [a, b, c, { ...c, id: "more" }] } }, limits)).toEqual(["plan.nodes: the plan has 4 nodes; at most 3"]);
    expect(planEditProblems({ plan: { nodes: [{ ...c, dependsOn: ["ghost"] }] } }, limits)).toEqual(['plan.nodes[0].dependsOn[0]: no node has the id "ghost"']);
    expect(planEditProblems({ plan: { nodes: [] } }, limits)).toEqual(["plan.nodes: the plan has no nodes"]);
  });

  it("refuse an edit of the wrong shape before checking the plan", () => {
    expect(planEditProblems({}, limits)).toEqual(["plan: required"]);
    expect(planEditProblems({ plan, tokens: 5 }, limits)).toEqual(["tokens: only the plan can be edited on a plan approval"]);
    expect(planEditProblems({ plan: [] }, limits)).toEqual(["plan: must be an object with nodes"]);
    expect(planEditProblems({ plan: { nodes: [{ id: 1, agent: "flight-researcher", objective: "x", dependsOn: "a", extra: true }] } }, limits)).toEqual([
      "plan.nodes[0].extra: not a node field (id, agent, objective, dependsOn)",
      "plan.nodes[0].id: must be text",
      "plan.nodes[0].dependsOn: must be a list of node ids",
    ]);
    expect(planEditProblems({ plan: { nodes: [plan.nodes[0]], edges: [] } }, limits)).toEqual(["plan.edges: not a plan field (nodes, metadata)"]);
  });

  it("run the approver's edit when there is one, else the plan proposed", () => {
    const edited = { nodes: [plan.nodes[0]!] };
    expect(approvedPlan({ arguments: { plan }, decision: { approved: true, decidedBy, decidedAt: "", editedArguments: { plan: edited } } })).toEqual(edited);
    expect(approvedPlan({ arguments: { plan }, decision: { approved: true, decidedBy, decidedAt: "" } })).toEqual(plan);
    expect(proposedPlan({ arguments: { tokens: 5 } })).toBeNull();
  });

  it("are told apart from tool calls and budget requests, and read as a sentence", () => {
    expect(isPlanApproval({ toolName: PLAN_APPROVAL_TOOL })).toBe(true);
    expect(isPlanApproval({ toolName: PLAN_APPROVAL_TOOL, kind: "budget" })).toBe(false);
    expect(isPlanApproval({ toolName: "ledger_transfer" })).toBe(false);
    expect(planLimitsOf({ planLimits: limits })).toEqual(limits);
    expect(planLimitsOf({})).toBeNull();
    expect(planRequestSentence({ agentName: "trip-planner", arguments: { plan } })).toBe("trip-planner proposes a plan of 3 nodes");
  });

  it("describe what may be edited as a JSON schema with the cards and the size limit", () => {
    const schema = planApprovalSchema(limits) as { properties: { plan: { properties: { nodes: { maxItems: number; items: { properties: { agent: { enum: string[] } } } } } } } };
    expect(schema.properties.plan.properties.nodes.maxItems).toBe(3);
    expect(schema.properties.plan.properties.nodes.items.properties.agent.enum).toEqual(limits.agents);
  });
});
