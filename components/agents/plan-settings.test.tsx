import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { agentGraphSchema, type AgentGraph } from "@/lib/agents/schemas";
import { validateAgentGraph } from "@/lib/agents/validate";
import { PlanSettingsGroup, withPlanMode } from "./plan-settings";

const agents = [{ name: "lead" }, { name: "researcher" }, { name: "writer" }];
const plain: AgentGraph = agentGraphSchema.parse({ entryAgent: "lead", agents });
const ignore = () => undefined;
const render = (graph: AgentGraph) =>
  renderToStaticMarkup(createElement(PlanSettingsGroup, { graph, issues: validateAgentGraph(graph), readOnly: false, edit: ignore })).replace(/<!-- -->/g, "");

describe("the plan-and-execute settings", () => {
  it("off, show only the toggle and what the mode does", () => {
    const html = render(plain);
    expect(html).toContain("Plan and execute");
    expect(html).toContain("the other agents (its cards)");
    expect(html, "no plan fields while the mode is off").not.toContain("Max nodes");
  });

  it("on, show the plan's limits, the approval and a synthesis agent chosen among the cards, never the planner", () => {
    const graph = withPlanMode(plain, true);
    const html = render(graph);
    for (const label of ["Max nodes", "Nodes at once", "Node retries", "Synthesis agent", "An approver approves the plan before it runs"]) expect(html).toContain(label);
    expect(html).toContain("lead (the entry agent) plans");
    expect(html).toContain('<option value="researcher">researcher</option>');
    expect(html).toContain('<option value="writer">writer</option>');
    expect(html, "the planner is not a synthesis choice").not.toContain('<option value="lead">');
    expect(html).toContain('value="50"');
  });

  it("keep a synthesis agent that is the planner visible beside the validator's message", () => {
    const graph = { ...withPlanMode(plain, true), plan: { ...withPlanMode(plain, true).plan!, synthesisAgent: "lead" } };
    const html = render(graph);
    expect(html).toContain('<option value="lead" selected="">lead (not one of the cards)</option>');
    expect(html).toContain("the planner cannot also write the synthesis");
  });
});

describe("withPlanMode", () => {
  it("turns the mode on with default settings, keeps edited settings, and drops them when turned off", () => {
    const on = withPlanMode(plain, true);
    expect(on.mode).toBe("plan-and-execute");
    expect(on.plan).toEqual({ maxNodes: 50, concurrency: 4, approval: false, nodeRetries: 1 });
    expect(validateAgentGraph(on).errors).toEqual([]);
    const edited = withPlanMode({ ...on, plan: { ...on.plan!, concurrency: 8 } }, true);
    expect(edited.plan?.concurrency).toBe(8);
    const off = withPlanMode(edited, false);
    expect("mode" in off || "plan" in off).toBe(false);
    expect(validateAgentGraph(off).errors).toEqual([]);
  });
});
