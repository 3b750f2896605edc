import { describe, expect, it } from "vitest";
import { formatPath, validateAgentGraph } from "./validate";
import type { AgentGraphInput } from "./schemas";

const agent = (name: string, extra: Record<string, unknown> = {}) => ({ name, systemPrompt: `You are ${name}.`, model: "demo/assistant", ...extra });

function graph(agents: object[], entryAgent = "main"): AgentGraphInput {
  return { entryAgent, agents } as AgentGraphInput;
}

describe("validateAgentGraph: errors with exact paths", () => {
  it.each<[string, AgentGraphInput, { path: string; code: string; message?: RegExp }]>([
    ["space in a name", graph([agent("main"), agent("bad name")]), { path: "agents[1].name", code: "invalid", message: /no spaces or slashes/ }],
    ["slash in a name", graph([agent("main/x")], "main/x"), { path: "agents[0].name", code: "invalid" }],
    ["duplicate names", graph([agent("main"), agent("helper"), agent("helper")]), { path: "agents[2].name", code: "duplicate_name", message: /also agents\[1\]/ }],
    ["unknown entry agent", graph([agent("main")], "missing"), { path: "entryAgent", code: "unknown_entry_agent" }],
    ["unknown sub-agent", graph([agent("main"), agent("a"), agent("b", { subAgents: ["a", "ghost"] })]), { path: "agents[2].subAgents[1]", code: "unknown_sub_agent", message: /"ghost"/ }],
    ["two-agent cycle", graph([agent("main", { subAgents: ["a"] }), agent("a", { subAgents: ["main"] })]), { path: "agents[0].subAgents[0]", code: "cycle", message: /main → a → main/ }],
    ["self cycle", graph([agent("main"), agent("loop", { subAgents: ["loop"] })]), { path: "agents[1].subAgents[0]", code: "cycle", message: /loop → loop/ }],
    ["reserved tool", graph([agent("main", { tools: ["calculator", "message_agent"] })]), { path: "agents[0].tools[1]", code: "reserved_tool_name" }],
    ["reserved MCP tool", graph([agent("main", { mcpServers: [{ name: "kb", transport: { type: "http", url: "http://127.0.0.1:1/mcp" }, allowTools: ["message_agent"] }] })]), { path: "agents[0].mcpServers[0].allowTools[0]", code: "reserved_tool_name" }],
    ["unknown built-in tool", graph([agent("main", { tools: ["teleport"] })]), { path: "agents[0].tools[0]", code: "unknown_tool" }],
    ["bad model id", graph([agent("main", { model: "gpt-4" })]), { path: "agents[0].model", code: "invalid" }],
    ["temperature too high", graph([agent("main", { temperature: 2.5 })]), { path: "agents[0].temperature", code: "invalid" }],
    ["iterations over 500", graph([agent("main", { maxIterations: 501 })]), { path: "agents[0].maxIterations", code: "invalid" }],
    ["depth over 5", { ...graph([agent("main")]), limits: { maxDepth: 6 } } as AgentGraphInput, { path: "limits.maxDepth", code: "invalid" }],
    ["no agents", graph([]), { path: "agents", code: "invalid" }],
    ["bad approval role", graph([agent("main", { tools: ["calculator"], approvalRules: [{ pattern: "calc*", requiredRole: "root" }] })]), { path: "agents[0].approvalRules[0].requiredRole", code: "invalid" }],
  ])("%s", (_label, input, expected) => {
    const result = validateAgentGraph(input);
    expect(result.ok).toBe(false);
    const issue = result.errors.find((e) => e.path === expected.path && e.code === expected.code);
    expect(issue, `expected ${expected.code} at ${expected.path}; got ${JSON.stringify(result.errors)}`).toBeDefined();
    if (expected.message) expect(issue?.message).toMatch(expected.message);
  });

  it("reports every problem at once", () => {
    const result = validateAgentGraph(graph([agent("main", { subAgents: ["x"], tools: ["message_agent"] }), agent("main")]));
    expect(result.errors.map((e) => e.code).sort()).toEqual(["duplicate_name", "reserved_tool_name", "unknown_sub_agent"]);
  });
});

describe("validateAgentGraph: valid graphs and warnings", () => {
  it("accepts a graph with sub-agents, tools and approval rules, filling defaults", () => {
    const result = validateAgentGraph(
      graph([
        agent("main", { subAgents: ["helper"], tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_*" }, { pattern: "message_agent", requiredRole: "approver" }] }),
        agent("helper", { description: "Knows about orders" }),
      ]),
    );
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([]);
    expect(result.graph?.limits.maxDepth).toBe(3);
    expect(result.graph?.agents[0]?.approvalRules[0]?.expiresInSeconds).toBe(86_400);
  });

  it("warns (not fails) when an approval pattern matches no tool", () => {
    const result = validateAgentGraph(graph([agent("main", { tools: ["calculator"], approvalRules: [{ pattern: "delete_*" }] })]));
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([expect.objectContaining({ path: "agents[0].approvalRules[0].pattern", code: "pattern_matches_nothing" })]);
  });

  it("lets a pattern aim at an MCP server whose tools are only known at run time", () => {
    const result = validateAgentGraph(
      graph([agent("main", { mcpServers: [{ name: "kb", transport: { type: "stdio", command: "node" } }], approvalRules: [{ pattern: "kb__delete_*" }] })]),
    );
    expect(result.warnings).toEqual([]);
  });

  it("formats paths the way the designer shows them", () => {
    expect(formatPath(["agents", 2, "subAgents", 0])).toBe("agents[2].subAgents[0]");
    expect(formatPath(["limits", "maxDepth"])).toBe("limits.maxDepth");
  });
});
