// Graphs with routers, handoffs and output schemas: what a save refuses, with
// the path the designer points at, and what it only warns about.
import { describe, expect, it } from "vitest";
import { validateAgentGraph } from "./validate";
import { requireValidGraph } from "./repository";
import { InvalidConfig } from "./errors";
import type { AgentGraphInput } from "./schemas";

const agent = (name: string, extra: Record<string, unknown> = {}) => ({ name, model: "demo/assistant", ...extra });
const graph = (agents: object[], extra: Record<string, unknown> = {}) => ({ entryAgent: "main", agents, ...extra }) as AgentGraphInput;
const objectSchema = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] };

describe("orchestration checks at save", () => {
  it.each<[string, AgentGraphInput, { path: string; code: string; message?: RegExp }]>([
    ["router without children", graph([agent("main", { kind: "router" })]), { path: "agents[0].subAgents", code: "router_without_children", message: /no children to route to/ }],
    ["default agent not a child", graph([agent("main", { kind: "router", subAgents: ["a"], router: { defaultAgent: "b" } }), agent("a"), agent("b")]), { path: "agents[0].router.defaultAgent", code: "invalid_router" }],
    ["router with an output schema", graph([agent("main", { kind: "router", subAgents: ["a"], outputSchema: { schema: objectSchema } }), agent("a")]), { path: "agents[0].outputSchema", code: "invalid_router" }],
    ["router settings on an agent", graph([agent("main", { router: { threshold: 0.5 } })]), { path: "agents[0].router", code: "invalid_router" }],
    ["threshold above 1", graph([agent("main", { kind: "router", subAgents: ["a"], router: { threshold: 1.5 } }), agent("a")]), { path: "agents[0].router.threshold", code: "invalid" }],
    ["handoff to a missing agent", graph([agent("main", { handoffs: ["ghost"] })]), { path: "agents[0].handoffs[0]", code: "unknown_handoff_target", message: /missing agent "ghost"/ }],
    ["handoff to itself", graph([agent("main", { handoffs: ["main"] })]), { path: "agents[0].handoffs[0]", code: "unknown_handoff_target" }],
    ["handoff listed twice", graph([agent("main", { handoffs: ["a", "a"] }), agent("a")]), { path: "agents[0].handoffs[1]", code: "unknown_handoff_target" }],
    ["schema over 64 KB", graph([agent("main", { outputSchema: { schema: { type: "object", description: "x".repeat(70_000) } } })]), { path: "agents[0].outputSchema.schema", code: "schema_too_large", message: /at most 64 KB/ }],
    ["schema that is not an object", graph([agent("main", { outputSchema: { schema: { type: "string" } } })]), { path: "agents[0].outputSchema.schema", code: "invalid_output_schema" }],
    ["reserved tool: return", graph([agent("main", { tools: ["return"] })]), { path: "agents[0].tools[0]", code: "reserved_tool_name" }],
    ["reserved MCP tool: fail", graph([agent("main", { mcpServers: [{ name: "kb", allowTools: ["fail"] }] })]), { path: "agents[0].mcpServers[0].allowTools[0]", code: "reserved_tool_name" }],
    ["reserved tool: handoff", graph([agent("main", { tools: ["handoff"] })]), { path: "agents[0].tools[0]", code: "reserved_tool_name" }],
  ])("%s", (_label, input, expected) => {
    const result = validateAgentGraph(input);
    const issue = result.errors.find((e) => e.path === expected.path && e.code === expected.code);
    expect(issue, `expected ${expected.code} at ${expected.path}; got ${JSON.stringify(result.errors)}`).toBeDefined();
    if (expected.message) expect(issue?.message).toMatch(expected.message);
  });

  it("refuses an invalid JSON Schema on the server, naming the problem and the path", () => {
    const input = graph([agent("main", { outputSchema: { schema: { type: "object", properties: { n: { type: "integr" } } } } })]);
    // The browser cannot compile schemas (its CSP forbids eval): the designer's live check passes it…
    expect(validateAgentGraph(input).ok).toBe(true);
    // …and the save, which every door goes through, refuses it.
    let refused: unknown;
    try {
      requireValidGraph(input);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(InvalidConfig);
    const issues = (refused as InvalidConfig).issues;
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toBe("agents[0].outputSchema.schema");
    expect(issues[0]?.message).toMatch(/^not a valid JSON Schema: .*type/);
    expect((refused as InvalidConfig).status).toBe(422);
  });

  it("warns about handoff loops (allowed within maxHandoffs) and counts handoff targets as reachable", () => {
    const result = validateAgentGraph(graph([agent("main", { handoffs: ["a"] }), agent("a", { handoffs: ["main"] })]));
    expect(result.ok).toBe(true);
    const loop = result.warnings.find((w) => w.code === "handoff_loop");
    expect(loop).toMatchObject({ path: "agents[0].handoffs", agents: ["main", "a"] });
    expect(loop?.message).toMatch(/main → a → main/);
    expect(result.warnings.some((w) => w.code === "unreachable_agent")).toBe(false);
  });

  it("accepts a router with children and a default agent, and a lenient or strict output schema", () => {
    const result = validateAgentGraph(
      graph([agent("main", { kind: "router", subAgents: ["a", "b"], router: { defaultAgent: "b" } }), agent("a", { outputSchema: { schema: objectSchema, strict: true } }), agent("b")]),
    );
    expect(result.errors).toEqual([]);
    expect(result.graph?.agents[0]?.router).toEqual({ threshold: 0.7, defaultAgent: "b", maxAttempts: 3 });
    expect(result.graph?.agents[2]?.outputSchema).toBeUndefined();
    expect(result.graph?.limits).toMatchObject({ maxSteps: 500, maxHandoffs: 5, onBudget: "fail" });
  });
});

describe("model inheritance (DD-7)", () => {
  it("lets any agent but the entry agent inherit its model", () => {
    expect(validateAgentGraph(graph([agent("main", { subAgents: ["a"] }), agent("a", { model: "inherit" })])).ok).toBe(true);
    const entry = validateAgentGraph(graph([agent("main", { model: "inherit" })]));
    expect(entry.errors).toEqual([expect.objectContaining({ path: "agents[0].model", message: expect.stringMatching(/no parent to inherit a model from/) })]);
    expect(validateAgentGraph(graph([agent("main", { model: "gpt-4" })])).errors[0]?.message).toMatch(/or inherit/);
  });
});

describe("plan-and-execute settings", () => {
  const trip = (extra: Record<string, unknown> = {}, planner: Record<string, unknown> = {}) =>
    graph([agent("main", planner), agent("researcher", { description: "finds facts" }), agent("itinerary")], { mode: "plan-and-execute", plan: { synthesisAgent: "itinerary" }, ...extra });

  it("accepts a planner with cards and a synthesis agent, every card reachable", () => {
    const result = validateAgentGraph(trip());
    expect(result.errors).toEqual([]);
    expect(result.warnings.filter((w) => w.code === "unreachable_agent")).toEqual([]);
    expect(result.graph?.plan).toEqual({ maxNodes: 50, concurrency: 4, synthesisAgent: "itinerary", approval: false, nodeRetries: 1 });
  });

  it.each<[string, AgentGraphInput, string]>([
    ["plan settings without the mode", graph([agent("main")], { plan: {} }), "plan"],
    ["a synthesis agent that is missing", trip({ plan: { synthesisAgent: "ghost" } }), "plan.synthesisAgent"],
    ["the planner as synthesis agent", trip({ plan: { synthesisAgent: "main" } }), "plan.synthesisAgent"],
    ["a planner with an output schema", trip({}, { outputSchema: { schema: objectSchema } }), "agents[0].outputSchema"],
    ["a planner that routes", trip({}, { kind: "router", subAgents: ["researcher"] }), "agents[0].kind"],
    ["no cards", graph([agent("main")], { mode: "plan-and-execute" }), "agents"],
  ])("refuses %s", (_label, input, path) => {
    const result = validateAgentGraph(input);
    expect(result.errors.some((e) => e.path === path && e.code === "invalid_plan_settings"), JSON.stringify(result.errors)).toBe(true);
  });
});
