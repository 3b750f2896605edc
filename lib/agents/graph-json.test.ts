// Property-based: whatever an import holds, the answer is a graph or a list of
// problems, each addressed by a path in the one format users see.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { exportGraphJson, importGraphJson, importGraphValue } from "./graph-json";
import { DEMO_AGENT_GRAPHS } from "./demo";
import { agentGraphSchema } from "./schemas";

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

  it("answers graphs with one value broken anywhere with errors at that place", () => {
    fc.assert(fc.property(mutatedGraph, (graph) => expectPathAddressed(importGraphValue(graph))), { numRuns: 3000 });
  });

  it("addresses problems inside an export file under `graph`", () => {
    const result = importGraphJson(JSON.stringify({ name: "x", version: 1, graph: { entryAgent: "main", agents: [{ name: "bad name" }] } }));
    expect(result.ok ? [] : result.errors.map((e) => e.path)).toEqual(["graph.agents[0].name"]);
  });
});
