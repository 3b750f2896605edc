import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { agentGraphSchema, type AgentGraph } from "@/lib/agents/schemas";
import { validateAgentGraph } from "@/lib/agents/validate";
import { Inspector } from "./inspector";

const ignore = () => undefined;
const render = (graph: AgentGraph, issues = validateAgentGraph(graph)) =>
  renderToStaticMarkup(
    createElement(Inspector, { graph, selectedId: null, issues, readOnly: false, providers: [], discovered: new Map(), onDiscovered: ignore, onRenamed: ignore, edit: ignore }),
  ).replace(/<!-- -->/g, "");

describe("the graph panel's follow-up policy", () => {
  const graph = agentGraphSchema.parse({ entryAgent: "a", agents: [{ name: "a" }] });

  it("offers the three policies, queueing selected for a graph that never chose", () => {
    const html = render(graph);
    expect(html).toContain("A message while the run works");
    expect(html).toContain('<option value="enqueue" selected="">queue it (answered after the turn)</option>');
    expect(html).toContain('<option value="reject">refuse it (409) until the run answers</option>');
    expect(html).toContain('<option value="interrupt">interrupt the turn and answer both</option>');
  });

  it("shows the chosen policy, and the validator's message beside the field for one it does not know", () => {
    expect(render({ ...graph, limits: { ...graph.limits, followUps: "interrupt" } })).toContain('<option value="interrupt" selected="">');
    const unknown = validateAgentGraph({ ...graph, limits: { ...graph.limits, followUps: "drop" } });
    expect(unknown.errors.map((e) => e.path)).toEqual(["limits.followUps"]);
    expect(render(graph, unknown)).toContain('data-testid="field-issues-limits.followUps"');
  });
});
