// Whatever an import holds, the answer is a graph or a list of problems, each
// addressed by a path in the one format users see (property-based), and that
// path is where the problem is: a broken value is reported at its own path
// (property-based over the demo graphs, and for concrete bad inputs below).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { exportGraphJson, importGraphJson, importGraphValue } from "./graph-json";
import { DEMO_AGENT_GRAPHS } from "./demo";
import { agentGraphSchema, type AgentGraphInput } from "./schemas";
import { formatPath } from "../errors";

/** `(root)`, `graph`, `agents[2].mcpServers[0].transport.url`, `env["MY-KEY"]`, … */
const PATH_FORMAT = /^(\(root\)|[A-Za-z_$][\w$]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])(\.[A-Za-z_$][\w$]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])*$/;

const valid = DEMO_AGENT_GRAPHS.map((d) => agentGraphSchema.parse(d.graph));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Replaces the value at a random path of a valid graph with arbitrary JSON (or deletes it). */
const mutatedGraph = fc
  .tuple(fc.constantFrom(...valid), fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), fc.option(fc.jsonValue(), { nil: undefined }))
  .map(([graph, steps, replacement]) => {
    const copy = JSON.parse(JSON.stringify(graph)) as Json;
    let at: Json = copy;
    for (let i = 0; i < steps.length; i++) {
      if (at === null || typeof at !== "object") break;
      const keys = Array.isArray(at) ? at.map((_, k) => k) : Object.keys(at);
      if (keys.length === 0) break;
      const key = keys[(steps[i] ?? 0) % keys.length]!;
      const last = i === steps.length - 1;
      const container: Record<string | number, Json> = at as Record<string | number, Json>;
      if (last || container[key] === null || typeof container[key] !== "object") {
        if (replacement === undefined && !Array.isArray(at)) delete container[key];
        else container[key] = (replacement ?? null) as Json;
        break;
      }
      at = container[key]!;
    }
    return copy;
  });

/** The JSON type of a value, as a replacement of another type must be refused for it. */
const jsonKind = (value: Json | undefined): string => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

/**
 * Replaces one value of a valid graph with JSON of another type, and says where:
 * structurally that value is now wrong, so the import must point there.
 */
const retypedGraph = fc
  .tuple(fc.constantFrom(...valid), fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }))
  .map(([graph, steps, replacement]) => {
    const copy = JSON.parse(JSON.stringify(graph)) as Json;
    const path: (string | number)[] = [];
    let container = copy as Record<string | number, Json>;
    let original: Json | undefined;
    for (const step of steps) {
      const keys = Array.isArray(container) ? container.map((_, k) => k) : Object.keys(container);
      const key = keys[step % keys.length]!;
      path.push(key);
      original = container[key];
      const next = container[key];
      // Go deeper while there is a non-empty object or array below; else replace here.
      const deeper = next !== null && typeof next === "object" && (Array.isArray(next) ? next.length : Object.keys(next).length) > 0;
      if (path.length === steps.length || !deeper) break;
      container = next as Record<string | number, Json>;
    }
    container[path.at(-1)!] = replacement as Json;
    return { graph: copy, path: formatPath(path), retyped: jsonKind(original) !== jsonKind(replacement as Json) };
  });

/** Whether `path` is `place` or encloses it (`agents[1]` encloses `agents[1].tools[0]`). */
const atOrAbove = (path: string, place: string) => path === place || place.startsWith(`${path}.`) || place.startsWith(`${path}[`);

function expectPathAddressed(result: ReturnType<typeof importGraphValue>) {
  if (result.ok) return;
  expect(result.errors.length).toBeGreaterThan(0);
  for (const error of result.errors) {
    expect(error.path, `${error.path}: ${error.message}`).toMatch(PATH_FORMAT);
    expect(error.message.length).toBeGreaterThan(0);
  }
}

describe("importing graphs (property-based)", () => {
  it("round-trips every demo graph through export and import", () => {
    for (const graph of valid) {
      const result = importGraphJson(exportGraphJson("x", 1, graph));
      expect(result.ok && result.graph).toEqual(graph);
    }
  });

  it("answers any text with a graph or path-addressed errors, never a throw", () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (text) => expectPathAddressed(importGraphJson(text))), { numRuns: 2000 });
  });

  it("answers any JSON value with a graph or path-addressed errors", () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => expectPathAddressed(importGraphValue(value))), { numRuns: 2000 });
  });

  it("answers graphs with one value broken or deleted anywhere with path-addressed errors", () => {
    fc.assert(fc.property(mutatedGraph, (graph) => expectPathAddressed(importGraphValue(graph))), { numRuns: 3000 });
  });

  it("reports a value of the wrong type at that value's path, never elsewhere", () => {
    fc.assert(
      fc.property(retypedGraph, ({ graph, path, retyped }) => {
        fc.pre(retyped);
        const result = importGraphValue(graph);
        // An output schema is free JSON, checked as a whole: most changes inside it are still a graph.
        const freeJson = /\.outputSchema\.schema[.[]/.test(path);
        if (result.ok) {
          expect(freeJson, `${path} retyped, yet the graph was accepted`).toBe(true);
          return;
        }
        const paths = result.errors.map((e) => e.path);
        expect(paths.filter((p) => !atOrAbove(p, path)), `errors away from the broken ${path}`).toEqual([]);
        if (!freeJson) expect(paths, `an error at the broken ${path} itself`).toContain(path);
      }),
      { numRuns: 3000 },
    );
  });

  it("addresses problems inside an export file under `graph`", () => {
    const result = importGraphJson(JSON.stringify({ name: "x", version: 1, graph: { entryAgent: "main", agents: [{ name: "bad name" }] } }));
    expect(result.ok ? [] : result.errors.map((e) => e.path)).toEqual(["graph.agents[0].name"]);
  });
});

describe("importing graphs: where each problem is reported", () => {
  /** A valid two-agent team: main asks billing, main may call two tools. */
  const team = (): AgentGraphInput => ({
    entryAgent: "main",
    agents: [
      { name: "main", model: "demo/assistant", tools: ["calculator", "current_time"], subAgents: ["billing"], approvalRules: [{ pattern: "calculator" }] },
      { name: "billing", model: "demo/assistant" },
    ],
  });
  /** The team with one change made by `edit`. */
  const broken = (edit: (graph: AgentGraphInput) => void): AgentGraphInput => {
    const graph = team();
    edit(graph);
    return graph;
  };
  const agent = (graph: AgentGraphInput, i: number) => graph.agents[i]!;
  const pathsOf = (result: ReturnType<typeof importGraphValue>) => (result.ok ? [] : result.errors.map((e) => [e.path, e.code]));

  it("the base graph is valid, so each case below has only its own problem", () => {
    expect(importGraphValue(team()).ok).toBe(true);
  });

  it.each<[string, () => unknown, [string, string][]]>([
    ["a word where the temperature (a number) goes", () => broken((g) => Object.assign(agent(g, 1), { temperature: "hot" })), [["agents[1].temperature", "invalid"]]],
    ["the entry agent left out", () => broken((g) => Reflect.deleteProperty(g, "entryAgent")), [["entryAgent", "invalid"]]],
    ["an entry agent nobody is named", () => broken((g) => Object.assign(g, { entryAgent: "nobody" })), [["entryAgent", "unknown_entry_agent"]]],
    ["a limit out of range", () => broken((g) => Object.assign(g, { limits: { maxDepth: 9 } })), [["limits.maxDepth", "invalid"]]],
    ["an unknown tool, second in the list", () => broken((g) => Object.assign(agent(g, 0), { tools: ["calculator", "teleport"] })), [["agents[0].tools[1]", "unknown_tool"]]],
    ["a reserved tool name", () => broken((g) => Object.assign(agent(g, 0), { tools: ["return"] })), [["agents[0].tools[0]", "reserved_tool_name"]]],
    ["a sub-agent nobody is named", () => broken((g) => Object.assign(agent(g, 0), { subAgents: ["billing", "ghost"] })), [["agents[0].subAgents[1]", "unknown_sub_agent"]]],
    ["a second agent with a taken name", () => broken((g) => g.agents.push({ name: "billing", model: "demo/assistant" })), [["agents[2].name", "duplicate_name"]]],
    ["a sub-agent cycle", () => broken((g) => Object.assign(agent(g, 1), { subAgents: ["main"] })), [["agents[0].subAgents[0]", "cycle"]]],
    ["a bad approval pattern", () => broken((g) => Object.assign(agent(g, 0), { approvalRules: [{ pattern: "calculator" }, { pattern: "no spaces" }] })), [["agents[0].approvalRules[1].pattern", "invalid"]]],
    [
      "a non-string env value under a key that is no identifier",
      () => broken((g) => Object.assign(agent(g, 1), { mcpServers: [{ name: "files", transport: { type: "stdio", command: "x", env: { "MY-KEY": 1 } } }] })),
      [['agents[1].mcpServers[0].transport.env["MY-KEY"]', "invalid"]],
    ],
    ["an inline MCP transport", () => broken((g) => Object.assign(agent(g, 1), { mcpServers: [{ name: "files", transport: { type: "stdio", command: "x" } }] })), [["agents[1].mcpServers[0].transport", "inline_mcp_server"]]],
    ["plan settings without plan mode", () => broken((g) => Object.assign(g, { plan: {} })), [["plan", "invalid_plan_settings"]]],
    ["no agents at all", () => broken((g) => Object.assign(g, { agents: [] })), [["agents", "invalid"]]],
    ["not an object", () => [team()], [["(root)", "invalid"]]],
  ])("%s", (_, input, expected) => {
    expect(pathsOf(importGraphValue(input())), "a bare graph").toEqual(expected);
    const inFile = importGraphJson(JSON.stringify({ name: "x", version: 1, graph: input() }));
    const under = expected.map(([path, code]) => [path === "(root)" ? "graph" : `graph.${path}`, code]);
    expect(pathsOf(inFile), "the same graph in an export file").toEqual(under);
  });

  it("reports text that is not JSON at the root", () => {
    expect(pathsOf(importGraphJson('{"entryAgent": "main",'))).toEqual([["(root)", "invalid"]]);
  });
});
