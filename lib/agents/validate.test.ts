import { describe, expect, it } from "vitest";
import { checkAgentGraph, loadableLegacyGraph, validateAgentGraph } from "./validate";
import { agentSchema, MAX_AGENTS, runLimitsSchema, type AgentGraph, type AgentGraphInput } from "./schemas";

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
    ["sub-agent listed twice", graph([agent("main", { subAgents: ["a", "b", "a"] }), agent("a"), agent("b")]), { path: "agents[0].subAgents[2]", code: "duplicate_sub_agent", message: /"a" is listed twice \(also agents\[0\]\.subAgents\[0\]\)/ }],
    ["same sub-agent twice in a row", graph([agent("main", { subAgents: ["b", "b"] }), agent("b")]), { path: "agents[0].subAgents[1]", code: "duplicate_sub_agent" }],
    ["two-agent cycle", graph([agent("main", { subAgents: ["a"] }), agent("a", { subAgents: ["main"] })]), { path: "agents[0].subAgents[0]", code: "cycle", message: /main → a → main/ }],
    ["self cycle", graph([agent("main"), agent("loop", { subAgents: ["loop"] })]), { path: "agents[1].subAgents[0]", code: "cycle", message: /loop → loop/ }],
    ["reserved tool", graph([agent("main", { tools: ["calculator", "message_agent"] })]), { path: "agents[0].tools[1]", code: "reserved_tool_name" }],
    ["reserved MCP tool", graph([agent("main", { mcpServers: [{ name: "kb", allowTools: ["message_agent"] }] })]), { path: "agents[0].mcpServers[0].allowTools[0]", code: "reserved_tool_name" }],
    ["inline stdio MCP server", graph([agent("main", { mcpServers: [{ name: "kb", transport: { type: "stdio", command: "sh", args: ["-c", "id"] } }] })]), { path: "agents[0].mcpServers[0].transport", code: "inline_mcp_server", message: /register this server in Admin › MCP servers/ }],
    ["inline HTTP MCP server", graph([agent("main", { mcpServers: [{ name: "ok" }, { name: "web", transport: { type: "http", url: "http://169.254.169.254/mcp" } }] })]), { path: "agents[0].mcpServers[1].transport", code: "inline_mcp_server" }],
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

  it("reports a repeated sub-agent once, and a cycle through it once", () => {
    const result = validateAgentGraph(graph([agent("main", { subAgents: ["main", "main"] })]));
    expect(result.errors.map((e) => `${e.code} ${e.path}`)).toEqual(["duplicate_sub_agent agents[0].subAgents[1]", "cycle agents[0].subAgents[0]"]);
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
      graph([agent("main", { mcpServers: [{ name: "kb" }], approvalRules: [{ pattern: "kb__delete_*" }] })]),
    );
    expect(result.warnings).toEqual([]);
  });

  it("warns about agents the entry agent can never reach, with each agent's path", () => {
    const result = validateAgentGraph(
      graph([agent("main", { subAgents: ["a"] }), agent("orphan", { subAgents: ["b"] }), agent("a", { subAgents: ["c"] }), agent("b"), agent("c")]),
    );
    expect(result.ok, "unreachable agents are a warning, not an error").toBe(true);
    expect(result.warnings.map((w) => ({ path: w.path, code: w.code }))).toEqual([
      { path: "agents[1]", code: "unreachable_agent" },
      { path: "agents[3]", code: "unreachable_agent" },
    ]);
    expect(result.warnings[0]?.message).toMatch(/"orphan" is not reachable from the entry agent "main"/);
  });

  it("counts reachability through cycles and does not warn when the entry agent is unknown", () => {
    const cyclic = validateAgentGraph(graph([agent("main", { subAgents: ["a"] }), agent("a", { subAgents: ["main"] })]));
    expect(cyclic.warnings).toEqual([]);
    const noEntry = validateAgentGraph(graph([agent("a"), agent("b")], "missing"));
    expect(noEntry.errors.map((e) => e.code)).toEqual(["unknown_entry_agent"]);
    expect(noEntry.warnings, "every agent would be unreachable: the entry error says it all").toEqual([]);
  });
});

describe("checkAgentGraph: a large graph", () => {
  // 500 agents: a tree of fan-out 3 from "main", with a duplicated link, a cycle
  // and ten agents nothing links to. The checks of meaning are run on the
  // parsed graph directly.
  function largeGraph(): AgentGraph {
    const agents = Array.from({ length: 500 }, (_, i) =>
      agentSchema.parse(
        agent(i === 0 ? "main" : `agent-${i}`, {
          tools: ["calculator"],
          approvalRules: [{ pattern: "calc*" }],
          subAgents: [1, 2, 3].map((k) => i * 3 + k).filter((c) => c < 490).map((c) => `agent-${c}`),
        }),
      ),
    );
    // agent-7 (a grandchild of main) lists agent-22 again and links back to main.
    const seventh = agents[7];
    if (seventh) seventh.subAgents.push("agent-22", "main");
    return { entryAgent: "main", agents, limits: runLimitsSchema.parse({}) };
  }

  it("validates 500 agents completely", () => {
    const result = checkAgentGraph(largeGraph());
    expect(result.errors.map((e) => `${e.code} ${e.path}`)).toEqual(["duplicate_sub_agent agents[7].subAgents[3]", "cycle agents[0].subAgents[1]"]);
    expect(result.errors[1]?.message).toBe("sub-agent cycle: main → agent-2 → agent-7 → main");
    expect(result.warnings.map((w) => w.path)).toEqual(Array.from({ length: 10 }, (_, k) => `agents[${490 + k}]`));
  });

  it("refuses a graph over the schema's size limit, with the path", () => {
    const result = validateAgentGraph({ entryAgent: "main", agents: Array.from({ length: MAX_AGENTS + 1 }, (_, i) => agent(i === 0 ? "main" : `agent-${i}`)) });
    expect(result.errors).toEqual([expect.objectContaining({ path: "agents", code: "invalid" })]);
  });
});

describe("MCP servers are references to the registry", () => {
  it("accepts a reference by name, with or without a narrowing allow-list", () => {
    const result = validateAgentGraph(graph([agent("main", { mcpServers: [{ name: "kb" }, { name: "remote", allowTools: ["search_kb"] }] })]));
    expect(result.ok, JSON.stringify(result.errors)).toBe(true);
  });

  it("a stored legacy graph with inline servers still loads (for an admin to register them) but is not valid", () => {
    const legacy = graph([agent("main", { mcpServers: [{ name: "kb", transport: { type: "stdio", command: "node", args: ["x.js"], env: { TOKEN: "t" } } }] })]);
    const result = validateAgentGraph(legacy);
    expect(result.ok).toBe(false);
    expect(loadableLegacyGraph(result)?.agents[0]?.mcpServers[0]?.transport).toMatchObject({ type: "stdio", command: "node" });
  });

  it("a graph with other errors besides inline servers does not load", () => {
    const result = validateAgentGraph(graph([agent("main", { tools: ["teleport"], mcpServers: [{ name: "kb", transport: { type: "http", url: "http://x.test/mcp" } }] })]));
    expect(loadableLegacyGraph(result)).toBeNull();
  });
});

describe("a budget ask's and a plan approval's reminders (limits.budgetReminders, plan.approvalReminders)", () => {
  const planGraph = (plan: Record<string, unknown>, limits: Record<string, unknown> = {}) =>
    ({ ...graph([agent("main"), agent("worker")]), mode: "plan-and-execute", plan, limits }) as AgentGraphInput;
  const budgetGraph = (limits: Record<string, unknown>) => ({ ...graph([agent("main")]), limits }) as AgentGraphInput;
  const issues = (list: { path: string; message: string }[]) => list.map(({ path, message }) => ({ path, message }));

  it("accepts a consistent setting with no warning", () => {
    expect(validateAgentGraph(budgetGraph({ onBudget: "ask", budgetReminders: { remindAfterMinutes: 15, escalateAfterMinutes: 45, escalateTo: "admin" } }))).toMatchObject({ ok: true, warnings: [] });
    expect(validateAgentGraph(planGraph({ approval: true, approvalReminders: { remindAfterMinutes: 30, escalateAfterMinutes: 120, escalateTo: "slack:C0123ABCD" } }, { runTimeoutSeconds: 4 * 3600 }))).toMatchObject({ ok: true, warnings: [] });
  });

  it("refuses a half-set escalation and one not after the reminder, at the field, in an approval rule's words", () => {
    expect(issues(validateAgentGraph(budgetGraph({ onBudget: "ask", budgetReminders: { escalateAfterMinutes: 60 } })).errors)).toEqual([
      { path: "limits.budgetReminders.escalateTo", message: "choose who hears of the escalation (a role or a Slack channel), or clear “Escalate after”" },
    ]);
    expect(issues(validateAgentGraph(budgetGraph({ onBudget: "ask", budgetReminders: { escalateTo: "approver" } })).errors)).toEqual([
      { path: "limits.budgetReminders.escalateAfterMinutes", message: "set after how many minutes to escalate, or choose no escalation" },
    ]);
    expect(issues(validateAgentGraph(planGraph({ approval: true, approvalReminders: { remindAfterMinutes: 60, escalateAfterMinutes: 60, escalateTo: "admin" } })).errors)).toEqual([
      { path: "plan.approvalReminders.escalateAfterMinutes", message: "escalate must come after the reminder: more than 60 min" },
    ]);
  });

  it("warns, without refusing, of a reminder or escalation due at or after the run timeout (the request expires before it)", () => {
    const late = validateAgentGraph(budgetGraph({ onBudget: "ask", runTimeoutSeconds: 1800, budgetReminders: { remindAfterMinutes: 10, escalateAfterMinutes: 30, escalateTo: "admin" } }));
    expect(late.ok).toBe(true);
    expect(issues(late.warnings)).toEqual([{ path: "limits.budgetReminders.escalateAfterMinutes", message: "the escalation is never sent: the request expires before the run timeout (1800 s, 30 min)" }]);
    const plan = validateAgentGraph(planGraph({ approval: true, approvalReminders: { remindAfterMinutes: 5 } }, { runTimeoutSeconds: 299 }));
    expect(plan.ok).toBe(true);
    expect(plan.warnings.map((w) => [w.path, w.code])).toEqual([["plan.approvalReminders.remindAfterMinutes", "invalid_reminder"]]);
    expect(validateAgentGraph(planGraph({ approval: true, approvalReminders: { remindAfterMinutes: 4 } }, { runTimeoutSeconds: 300 })).warnings, "due a minute before the timeout: sent").toEqual([]);
  });

  it("warns of a setting no request will ever use: a run that fails at its budget, a plan that waits for nobody", () => {
    const fail = validateAgentGraph(budgetGraph({ onBudget: "fail", budgetReminders: { remindAfterMinutes: 10 } }));
    expect(fail.ok).toBe(true);
    expect(issues(fail.warnings)).toEqual([{ path: "limits.budgetReminders", message: 'never sent: at the token budget the run fails and asks nobody (set onBudget to "ask")' }]);
    const noApproval = validateAgentGraph(planGraph({ approval: false, approvalReminders: { remindAfterMinutes: 10 } }));
    expect(noApproval.ok).toBe(true);
    expect(issues(noApproval.warnings)).toEqual([{ path: "plan.approvalReminders", message: "never sent: the plan does not wait for approval (turn plan approval on)" }]);
  });
});
