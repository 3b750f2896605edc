import { describe, expect, it } from "vitest";
import { agentGraphSchema, type AgentGraph } from "./schemas";
import { addAgent, addMcpServer, addTool, connect, deleteElements, parseEdgeId, pasteAgents, setLinkKind, updateAgent } from "./graph-edit";
import { validateAgentGraph } from "./validate";

const base = (): AgentGraph =>
  agentGraphSchema.parse({
    entryAgent: "main",
    agents: [{ name: "main", subAgents: ["billing"], tools: ["calculator"] }, { name: "billing" }],
    layout: { nodes: { "agent:main": { x: 0, y: 0 }, "agent:billing": { x: 0, y: 200 }, "tool:calculator": { x: 200, y: 200 } } },
  });

describe("graph edits", () => {
  it("adds an agent under a free name, with its position", () => {
    const { graph, name } = addAgent(base(), { x: 5, y: 6 }, "billing");
    expect(name).toBe("billing-2");
    expect(graph.layout?.nodes["agent:billing-2"]).toEqual({ x: 5, y: 6 });
  });

  it("carries a rename into links, the entry agent and positions", () => {
    const g = base();
    const once = updateAgent(g, 1, { ...g.agents[1]!, name: "money" });
    const renamed = updateAgent(once, 0, { ...once.agents[0]!, name: "front" });
    expect(renamed.entryAgent).toBe("front");
    expect(renamed.agents[0]?.subAgents).toEqual(["money"]);
    expect(Object.keys(renamed.layout?.nodes ?? {}).sort()).toEqual(["agent:front", "agent:money", "tool:calculator"]);
    expect(validateAgentGraph(renamed).ok).toBe(true);
  });

  it("connects agent → agent as a sub-agent and agent → tool as a tool, and refuses anything else", () => {
    let g = connect(base(), "agent:billing", "agent:main");
    expect(g.agents[1]?.subAgents).toEqual(["main"]);
    expect(validateAgentGraph(g).errors.map((e) => e.code)).toEqual(["cycle"]);
    expect(validateAgentGraph(g).errors[0]?.agents).toEqual(["main", "billing"]);
    g = addTool(g, "current_time", { x: 1, y: 1 }, "billing");
    expect(g.agents[1]?.tools).toEqual(["current_time"]);
    expect(connect(g, "tool:calculator", "agent:main")).toBe(g);
  });

  it("deletes an agent with the links to it, and passes the entry role on", () => {
    const g = deleteElements(base(), ["agent:main"], []);
    expect(g.agents.map((a) => a.name)).toEqual(["billing"]);
    expect(g.entryAgent).toBe("billing");
    expect(g.layout?.nodes["agent:main"]).toBeUndefined();
    expect(deleteElements(g, ["agent:billing"], [])).toBe(g); // the last agent stays
  });

  it("deletes a tool node from every agent and an edge's link only", () => {
    const g = deleteElements(base(), ["tool:calculator"], ["sub:main>billing"]);
    expect(g.agents[0]).toMatchObject({ tools: [], subAgents: [] });
  });

  it("adds the demo MCP server under a free name and removes it with its node", () => {
    const first = addMcpServer(base(), "main", { x: 0, y: 0 });
    const second = addMcpServer(first.graph, "main", { x: 0, y: 0 });
    expect([first.server, second.server]).toEqual(["kb", "kb2"]);
    const removed = deleteElements(second.graph, ["mcp:main:kb"], []);
    expect(removed.agents[0]?.mcpServers.map((s) => s.name)).toEqual(["kb2"]);
    expect(removed.layout?.nodes["mcp:main:kb"]).toBeUndefined();
  });

  it("pastes copies whose links among themselves point at the copies", () => {
    const g = base();
    const { graph, names } = pasteAgents(g, [g.agents[0]!, g.agents[1]!].map((agent) => ({ agent, position: { x: 0, y: 0 } })), { x: 40, y: 40 });
    expect(names).toEqual(["main-copy", "billing-copy"]);
    expect(graph.agents.find((a) => a.name === "main-copy")?.subAgents).toEqual(["billing-copy"]);
    expect(graph.layout?.nodes["agent:main-copy"]).toEqual({ x: 40, y: 40 });
  });

  it("links agents as a handoff, switches a link's kind both ways, and never links a pair twice", () => {
    let g = connect(base(), "agent:billing", "agent:main", "handoff");
    expect(g.agents[1]).toMatchObject({ subAgents: [], handoffs: ["main"] });
    expect(validateAgentGraph(g).errors).toEqual([]);
    expect(connect(g, "agent:billing", "agent:main", "sub"), "an existing handoff is not turned into a sub-agent by a second drag").toBe(g);
    g = setLinkKind(g, "billing", "main", "sub");
    expect(g.agents[1]).toMatchObject({ subAgents: ["main"], handoffs: [] });
    g = setLinkKind(g, "main", "billing", "handoff");
    expect(g.agents[0]).toMatchObject({ subAgents: [], handoffs: ["billing"] });
    expect(setLinkKind(g, "main", "billing", "handoff")).toBe(g);
  });

  it("warns about a handoff loop on every agent in it", () => {
    const g = connect(setLinkKind(base(), "main", "billing", "handoff"), "agent:billing", "agent:main", "handoff");
    const loop = validateAgentGraph(g).warnings.find((w) => w.code === "handoff_loop");
    expect(loop?.agents?.sort()).toEqual(["billing", "main"]);
  });

  it("carries a rename into handoffs and a router's default agent, and forgets a default that stops being a child", () => {
    const g = base();
    const router = updateAgent(g, 0, { ...g.agents[0]!, kind: "router", router: { threshold: 0.5, maxAttempts: 2, defaultAgent: "billing" }, handoffs: [] });
    const withHandoff = { ...router, agents: [...router.agents, { ...router.agents[1]!, name: "desk", handoffs: ["billing"] }] };
    const renamed = updateAgent(withHandoff, 1, { ...withHandoff.agents[1]!, name: "money" });
    expect(renamed.agents[0]?.router?.defaultAgent).toBe("money");
    expect(renamed.agents[2]?.handoffs).toEqual(["money"]);
    const unlinked = deleteElements(renamed, [], ["sub:main>money"]);
    expect(unlinked.agents[0]?.router).toEqual({ threshold: 0.5, maxAttempts: 2 });
    const gone = deleteElements(renamed, ["agent:money"], []);
    expect(gone.agents.find((a) => a.name === "desk")?.handoffs).toEqual([]);
  });

  it("deletes a handoff edge's link only, and pastes copies whose handoffs point at the copies", () => {
    const g = connect(base(), "agent:billing", "agent:main", "handoff");
    expect(deleteElements(g, [], ["handoff:billing>main"]).agents[1]?.handoffs).toEqual([]);
    const { graph } = pasteAgents(g, [g.agents[0]!, g.agents[1]!].map((agent) => ({ agent, position: { x: 0, y: 0 } })), { x: 0, y: 0 });
    expect(graph.agents.find((a) => a.name === "billing-copy")?.handoffs).toEqual(["main-copy"]);
  });

  it("reads edge ids back into what they link", () => {
    expect(parseEdgeId("handoff:a>b")).toEqual({ kind: "handoff", from: "a", to: "b" });
    expect(parseEdgeId("sub:a>b")).toEqual({ kind: "sub", from: "a", to: "b" });
    expect(parseEdgeId("tool:a>calculator")).toEqual({ kind: "tool", agent: "a", tool: "calculator" });
    expect(parseEdgeId("agent:a")).toBeNull();
  });
});
