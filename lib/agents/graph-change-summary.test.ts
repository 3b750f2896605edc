import { describe, expect, it } from "vitest";
import { agentGraphSchema } from "./schemas";
import { summarizeGraphChanges } from "./graph-change-summary";

const v3 = agentGraphSchema.parse({ entryAgent: "triage", agents: [{ name: "triage", subAgents: ["billing"] }, { name: "billing" }, { name: "old" }] });

describe("what a draft changes, in words", () => {
  it("names agents added and removed, and the settings changed per agent", () => {
    const draft = agentGraphSchema.parse({
      entryAgent: "triage",
      agents: [{ name: "triage", subAgents: ["billing"], systemPrompt: "Sort the ticket." }, { name: "billing", model: "demo/vision", temperature: 0.9 }, { name: "tech", description: "Outages" }],
    });
    expect(summarizeGraphChanges(v3, draft)).toEqual(["1 agent added (tech)", "1 agent removed (old)", "prompt of triage changed", "model and temperature of billing changed"]);
  });

  it("counts many agents and many settings instead of listing them all", () => {
    const draft = agentGraphSchema.parse({
      entryAgent: "triage",
      agents: [...v3.agents.map((a) => (a.name === "billing" ? { ...a, description: "x", temperature: 1, maxIterations: 3, tools: ["calculator"] } : a)), ...["a", "b", "c", "d"].map((name) => ({ name }))],
    });
    expect(summarizeGraphChanges(v3, draft)).toEqual(["4 agents added (a, b, c and 1 more)", "4 settings of billing changed"]);
  });

  it("calls a router's sub-agents its children, and names graph-wide changes", () => {
    const draft = agentGraphSchema.parse({
      entryAgent: "billing",
      agents: [{ name: "triage", kind: "router", subAgents: ["billing", "old"] }, { name: "billing" }, { name: "old" }],
      limits: { maxHandoffs: 2 },
    });
    expect(summarizeGraphChanges(v3, draft)).toEqual(["children and kind of triage changed", "entry agent triage → billing", "run limits changed"]);
  });

  it("says when only positions moved, and when nothing differs", () => {
    expect(summarizeGraphChanges(v3, { ...v3, layout: { nodes: { "agent:triage": { x: 5, y: 5 } } } })).toEqual(["only node positions moved"]);
    expect(summarizeGraphChanges(v3, v3)).toEqual(["no differences"]);
  });

  it("reads a rename (same place in the list) as one agent renamed, not one removed and one added", () => {
    const draft = agentGraphSchema.parse({
      entryAgent: "front-desk",
      agents: [{ name: "front-desk", subAgents: ["billing"], kind: "router" }, { name: "billing" }, { name: "old" }, { name: "new" }],
    });
    expect(summarizeGraphChanges(v3, draft)).toEqual(["1 agent added (new)", "triage renamed to front-desk", "kind of front-desk changed"]);
    // Deleted, and another agent added in its place: not a rename.
    const replaced = agentGraphSchema.parse({ entryAgent: "triage", agents: [{ name: "triage" }, { name: "tech", model: "demo/vision" }, { name: "old" }] });
    expect(summarizeGraphChanges(v3, replaced)).toEqual(["1 agent added (tech)", "1 agent removed (billing)", "sub-agents of triage changed"]);
  });
});
