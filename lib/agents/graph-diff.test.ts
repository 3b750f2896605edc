import { describe, expect, it } from "vitest";
import { agentGraphSchema } from "./schemas";
import { diffGraphs, unionGraph } from "./graph-diff";

const v1 = agentGraphSchema.parse({ entryAgent: "main", agents: [{ name: "main", subAgents: ["billing"], tools: ["calculator"] }, { name: "billing" }, { name: "old" }] });
const v2 = agentGraphSchema.parse({
  entryAgent: "main",
  agents: [{ name: "main", subAgents: ["billing", "new"], tools: [] }, { name: "billing", temperature: 0.7 }, { name: "new" }],
  layout: { nodes: { "agent:main": { x: 100, y: 0 } } },
});

describe("diffGraphs", () => {
  const diff = diffGraphs(v1, v2);

  it("marks added, removed and changed nodes and edges, ignoring positions", () => {
    expect(Object.fromEntries(diff.nodes)).toEqual({ "agent:main": "changed", "agent:billing": "changed", "agent:new": "added", "agent:old": "removed", "tool:calculator": "removed" });
    expect(Object.fromEntries(diff.edges)).toEqual({ "sub:main>new": "added", "tool:main>calculator": "removed" });
  });

  it("lists changed fields with agents named, not numbered", () => {
    expect(diff.fields).toEqual(
      expect.arrayContaining([
        { path: 'agents["billing"].temperature', before: 0.2, after: 0.7 },
        { path: 'agents["main"].subAgents', before: ["billing"], after: ["billing", "new"] },
        { path: 'agents["old"]', before: "(agent)" },
        { path: 'agents["new"]', after: "(agent)" },
      ]),
    );
  });

  it("shows both versions in one graph for the canvas", () => {
    const union = unionGraph(v1, v2);
    expect(union.agents.map((a) => a.name)).toEqual(["main", "billing", "new", "old"]);
    expect(union.agents[0]?.tools).toEqual(["calculator"]);
  });

  it("finds nothing between a graph and itself", () => {
    expect(diffGraphs(v2, v2)).toEqual({ nodes: new Map(), edges: new Map(), fields: [] });
  });

  it("marks handoff edges apart from sub-agent edges", () => {
    const before = agentGraphSchema.parse({ entryAgent: "a", agents: [{ name: "a", subAgents: ["b"] }, { name: "b" }] });
    const after = agentGraphSchema.parse({ entryAgent: "a", agents: [{ name: "a", handoffs: ["b"] }, { name: "b" }] });
    expect(Object.fromEntries(diffGraphs(before, after).edges)).toEqual({ "handoff:a>b": "added", "sub:a>b": "removed" });
    expect(unionGraph(before, after).agents[0]).toMatchObject({ subAgents: ["b"], handoffs: ["b"] });
  });

  it("lists a change of orchestration mode and plan settings", () => {
    const planned = { ...v1, mode: "plan-and-execute" as const, plan: { maxNodes: 10, concurrency: 4, approval: true, nodeRetries: 1 } };
    expect(diffGraphs(v1, planned).fields).toEqual([
      { path: "mode", after: "plan-and-execute" },
      { path: "plan", after: { maxNodes: 10, concurrency: 4, approval: true, nodeRetries: 1 } },
    ]);
  });
});
