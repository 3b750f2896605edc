import { describe, expect, it } from "vitest";
import { createFlowBuilder, withFullLayout, type FlowInputs } from "./flow-model";
import { moveNodes } from "@/lib/agents/graph-edit";
import { benchGraph } from "@/bench/designer/graph";
import { validateDraft } from "@/components/agents/use-designer";
import { issuesByNode } from "@/lib/agents/graph-issues";
import { agentGraphSchema } from "@/lib/agents/schemas";

describe("the flow builder", () => {
  const graph = benchGraph(300);
  const { errors, warnings } = validateDraft(graph);
  const base: FlowInputs = { graph, issues: issuesByNode(graph, errors, warnings), selected: new Set(), measured: new Map() };

  it("hands back the same node and edge objects for everything a drag did not move", () => {
    const build = createFlowBuilder();
    const first = build(base);
    const moved = build({ ...base, graph: moveNodes(graph, { "agent:agent-7": { x: 1, y: 2 } }) });
    const changed = moved.nodes.filter((node, i) => node !== first.nodes[i]).map((n) => n.id);
    expect(changed).toEqual(["agent:agent-7"]);
    expect(moved.edges.every((edge, i) => edge === first.edges[i])).toBe(true);
  });

  it("shows a new validation problem on its node only", () => {
    const build = createFlowBuilder();
    const first = build(base);
    const broken = { ...graph, agents: graph.agents.map((a, i) => (i === 5 ? { ...a, tools: ["no_such_tool"] } : a)) };
    const result = validateDraft(broken);
    const next = build({ ...base, graph: broken, issues: issuesByNode(broken, result.errors, result.warnings) });
    const changed = next.nodes.filter((node) => !first.nodes.includes(node)).map((n) => n.id);
    expect(changed).toEqual(["agent:agent-5", "tool:no_such_tool"]);
    expect(next.nodes.find((n) => n.id === "agent:agent-5")?.data).toMatchObject({ errors: 1, firstProblem: 'unknown built-in tool "no_such_tool"' });
  });

  it("places nodes a graph has no position for, and keeps the positions it has", () => {
    const small = benchGraph(30);
    const placed = withFullLayout({ ...small, layout: { nodes: { "agent:main": { x: 7, y: 9 } } } });
    expect(placed.layout?.nodes["agent:main"]).toEqual({ x: 7, y: 9 });
    const tools = new Set(small.agents.flatMap((a) => a.tools));
    expect(Object.keys(placed.layout?.nodes ?? {})).toHaveLength(30 + tools.size);
  });

  it("draws handoffs as their own labelled kind of edge and marks routers and typed agents", () => {
    const graph = agentGraphSchema.parse({
      entryAgent: "front",
      agents: [
        { name: "front", kind: "router", subAgents: ["billing", "tech"], router: { defaultAgent: "tech" } },
        { name: "billing", handoffs: ["tech"], outputSchema: { schema: { type: "object" } } },
        { name: "tech" },
      ],
    });
    const { nodes, edges } = createFlowBuilder()({ graph, issues: new Map(), selected: new Set(), measured: new Map() });
    expect(edges.map((e) => [e.id, e.className, e.label])).toEqual([
      ["sub:front>billing", "link-sub", undefined],
      ["sub:front>tech", "link-sub", undefined],
      ["handoff:billing>tech", "link-handoff", "handoff"],
    ]);
    expect(nodes.find((n) => n.id === "agent:front")?.data).toMatchObject({ router: true, typed: false, subAgents: 2 });
    expect(nodes.find((n) => n.id === "agent:billing")?.data).toMatchObject({ router: false, typed: true, handoffs: 1 });
    expect(Object.keys(withFullLayout(graph).layout?.nodes ?? {}).sort()).toEqual(["agent:billing", "agent:front", "agent:tech"]);
  });
});
