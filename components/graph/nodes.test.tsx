import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { ReactFlowProvider, type NodeProps } from "@xyflow/react";
import { describe, expect, it } from "vitest";
import { agentGraphSchema } from "@/lib/agents/schemas";
import { createFlowBuilder, type AgentFlowNode } from "./flow-model";
import { AgentNode, guardrailTitle } from "./nodes";

const graph = agentGraphSchema.parse({
  entryAgent: "main",
  agents: [
    {
      name: "main",
      tools: ["ledger_transfer"],
      subAgents: ["helper"],
      guardrails: [
        { name: "no-cards", kind: "input", check: { type: "pii", detectors: ["card"] }, action: "block" },
        { name: "large-transfers", kind: "tool_call", tools: ["ledger_*"], check: { type: "json_schema", schema: { properties: { amount: { maximum: 100 } } } }, action: "inbox" },
      ],
    },
    { name: "helper" },
  ],
});

function renderAgent(name: string): string {
  const { nodes } = createFlowBuilder()({ graph, issues: new Map(), selected: new Set(), measured: new Map() });
  const node = nodes.find((n): n is AgentFlowNode => n.type === "agent" && n.data.name === name);
  if (!node) throw new Error(`no node for agent ${name}`);
  const props = { id: node.id, type: "agent", data: node.data, selected: false, dragging: false, zIndex: 0, isConnectable: true, positionAbsoluteX: 0, positionAbsoluteY: 0, deletable: true, selectable: true, draggable: true } as NodeProps<AgentFlowNode>;
  return renderToStaticMarkup(createElement(ReactFlowProvider, null, createElement(AgentNode, props))).replace(/<!-- -->/g, "");
}

describe("an agent node's guardrail shield", () => {
  it("counts the agent's guardrails and lists their names and actions in its title", () => {
    const html = renderAgent("main");
    const title = "2 guardrails: no-cards: block, large-transfers: inbox";
    expect(guardrailTitle(["no-cards: block", "large-transfers: inbox"])).toBe(title);
    expect(html).toMatch(new RegExp(`<span[^>]*title="${title}"[^>]*data-testid="guardrail-marker"[^>]*>.*?2</span>`));
  });

  it("is absent on an agent without guardrails", () => {
    expect(renderAgent("helper")).not.toContain("guardrail-marker");
  });
});
