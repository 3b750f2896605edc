// Every demo graph the seed saves passes the checks a save runs (Ajv included),
// so `npm start` on an empty database never refuses one.
import { describe, expect, it } from "vitest";
import { DEMO_AGENT_GRAPHS } from "./index";
import { requireValidGraph } from "../repository";
import { validateAgentGraph } from "../validate";
import { checkJsonSchema } from "../../json-schema/validator";

describe("demo agent graphs", () => {
  it("have distinct names and descriptions", () => {
    expect(new Set(DEMO_AGENT_GRAPHS.map((d) => d.name)).size).toBe(DEMO_AGENT_GRAPHS.length);
    for (const demo of DEMO_AGENT_GRAPHS) expect(demo.description.length, demo.name).toBeGreaterThan(20);
  });

  it.each(DEMO_AGENT_GRAPHS.map((d) => [d.name, d.graph] as const))("%s validates as a save would, without warnings", (_name, graph) => {
    expect(() => requireValidGraph(graph)).not.toThrow();
    const validation = validateAgentGraph(graph, { jsonSchemaProblems: checkJsonSchema });
    expect(validation.ok ? validation.warnings : validation.errors).toEqual([]);
  });

  it("show each orchestration mode: a typed answer, a router, handoffs", () => {
    const agents = DEMO_AGENT_GRAPHS.flatMap((d) => requireValidGraph(d.graph).agents);
    expect(agents.some((a) => a.outputSchema)).toBe(true);
    expect(agents.some((a) => a.kind === "router" && a.router?.defaultAgent)).toBe(true);
    expect(agents.some((a) => a.handoffs.length > 0 && a.handoffContext === "summary")).toBe(true);
  });
});
