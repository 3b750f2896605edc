import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { InboxItem } from "@/lib/inbox/schemas";
import { checkPlanEdit, EditPlanForm } from "./plan-request";

const planLimits = { agents: ["flight-researcher", "itinerary-planner"], maxNodes: 5 };
const plan = {
  nodes: [
    { id: "flights", agent: "flight-researcher", objective: "Find flights", dependsOn: [] },
    { id: "days", agent: "itinerary-planner", objective: "Write the days", dependsOn: ["flights"] },
  ],
};
const ignore = () => undefined;

describe("the plan editor", () => {
  it("checks an edit as the workflow does before it is sent", () => {
    expect(checkPlanEdit(JSON.stringify(plan), { planLimits })).toEqual({ plan });
    const cyclic = { nodes: [{ ...plan.nodes[0], dependsOn: ["days"] }, plan.nodes[1]] };
    expect(checkPlanEdit(JSON.stringify(cyclic), { planLimits })).toEqual({ problems: ["plan.cycle: flights → days → flights"] });
    expect(checkPlanEdit("{ nodes: [", { planLimits })).toEqual({ problems: ["the plan is not valid JSON"] });
    expect(checkPlanEdit(JSON.stringify({ nodes: [{ ...plan.nodes[0], agent: "chef" }] }), { planLimits })).toEqual({
      problems: ['plan.nodes[0].agent: unknown agent "chef" (agents: flight-researcher, itinerary-planner)'],
    });
  });

  it("opens on the proposed plan as JSON, with the agents and size an edit must keep", () => {
    const item = { arguments: { plan }, planLimits } as unknown as InboxItem;
    const html = renderToStaticMarkup(createElement(EditPlanForm, { item, pending: false, onSubmit: ignore, onCancel: ignore }));
    expect(html).toContain('aria-label="Edit plan"');
    expect(html).toContain("Agents: flight-researcher, itinerary-planner · at most 5 nodes");
    expect(html).toContain("&quot;objective&quot;: &quot;Write the days&quot;");
    expect(html).toContain("Approve edited plan");
  });
});
