import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { InboxItem } from "@/lib/inbox/schemas";
import { checkPlanEdit, EditPlanForm, PlanRequestSummary } from "./plan-request";

const planLimits = { agents: ["flight-researcher", "itinerary-planner"], maxNodes: 5 };
const plan = {
  nodes: [
    { id: "flights", agent: "flight-researcher", objective: "Find flights", dependsOn: [] },
    { id: "days", agent: "itinerary-planner", objective: "Write the days", dependsOn: ["flights"] },
  ],
};
const ignore = () => undefined;
const item = { id: "a1", runId: "r1", agentName: "trip-planner", toolName: "plan", requestedAt: "2026-01-01T00:00:00.000Z", requiredRole: null, arguments: { plan }, planLimits } as unknown as InboxItem;

describe("the plan editor", () => {
  it("checks JSON as the workflow does before it is sent", () => {
    expect(checkPlanEdit(JSON.stringify(plan), { planLimits })).toEqual({ plan });
    const cyclic = { nodes: [{ ...plan.nodes[0], dependsOn: ["days"] }, plan.nodes[1]] };
    expect(checkPlanEdit(JSON.stringify(cyclic), { planLimits })).toEqual({ problems: ["plan.cycle: flights → days → flights"] });
    expect(checkPlanEdit("{ nodes: [", { planLimits })).toEqual({ problems: ["the plan is not valid JSON"] });
    expect(checkPlanEdit(JSON.stringify({ nodes: [{ ...plan.nodes[0], agent: "chef" }] }), { planLimits })).toEqual({
      problems: ['plan.nodes[0].agent: unknown agent "chef" (agents: flight-researcher, itinerary-planner)'],
    });
  });

  it("opens on the proposed plan with the graph's agents and size, and nothing to approve until something changed", () => {
    const html = renderToStaticMarkup(createElement(EditPlanForm, { item, pending: false, onSubmit: ignore, onCancel: ignore }));
    expect(html).toContain('aria-label="Edit plan"');
    expect(html).toContain("2 nodes of at most 5 · agents: flight-researcher, itinerary-planner");
    expect(html).toContain('data-testid="plan-edit-canvas" data-nodes="2" data-edges="1"');
    expect(html).toMatch(/type="submit" disabled="">Approve with edits<\/button>/);
    expect(html).toContain("No edits yet");
  });
});

describe("the plan request", () => {
  it("tells someone who cannot decide that it waits for an approver, and where", () => {
    const html = renderToStaticMarkup(createElement(PlanRequestSummary, { item, decider: null }));
    expect(html).toContain("Waiting for an approver");
    expect(html).toContain('href="/inbox"');
    expect(html).not.toContain("until you decide");
  });

  it("tells an approver nothing runs until they decide", () => {
    const html = renderToStaticMarkup(createElement(PlanRequestSummary, { item, decider: "idle" }));
    expect(html).toContain("No node runs until you decide");
    expect(html).not.toContain("Waiting for an approver");
  });
});
