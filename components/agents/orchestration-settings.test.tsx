import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { agentGraphSchema, type AgentGraph } from "@/lib/agents/schemas";
import { validateAgentGraph } from "@/lib/agents/validate";
import { KindSettings, LinkInspector } from "./orchestration-settings";
import { OutputSchemaEditor } from "./output-schema-editor";

const graph: AgentGraph = agentGraphSchema.parse({
  entryAgent: "front",
  agents: [
    { name: "front", kind: "router", subAgents: ["billing", "general"], router: { defaultAgent: "tech" } },
    { name: "billing", handoffs: ["general"], handoffContext: "recent", handoffRecentMessages: 4 },
    { name: "general" },
    { name: "tech" },
  ],
});
const issues = validateAgentGraph(graph);
const ignore = () => undefined;
/** Markup without React's comment markers, so texts split by expressions read whole. */
const render = (element: Parameters<typeof renderToStaticMarkup>[0]) => renderToStaticMarkup(element).replace(/<!-- -->/g, "");

describe("the orchestration settings", () => {
  it("show a router's settings with its children to default to, and the validator's message beside the default agent", () => {
    const html = render(createElement(KindSettings, { agent: graph.agents[0]!, base: "agents[0]", issues, readOnly: false, set: ignore }));
    expect(html).toContain("Confidence threshold (0–1)");
    expect(html).toContain('<option value="billing">billing</option>');
    expect(html).toContain('<option value="general">general</option>');
    expect(html, "a default that is not a child stays visible as what it is").toContain('<option value="tech" selected="">tech (not a child)</option>');
    expect(html).toContain("the default agent &quot;tech&quot; is not one of the router&#x27;s children (billing, general)");
  });

  it("show a link's kind as the graph has it, with its meaning and the sender's handoff context", () => {
    const html = render(createElement(LinkInspector, { graph, from: "billing", to: "general", kind: "sub", issues, readOnly: false, edit: ignore, onKindChanged: ignore }));
    expect(html).toContain("transfers control for good");
    expect(html).toMatch(/<input type="radio" name="link-kind" checked=""[^>]*\/>Handoff \(takes over\)/);
    expect(html).toContain('<option value="recent" selected="">the last N messages</option>');
    const child = render(createElement(LinkInspector, { graph, from: "front", to: "billing", kind: "sub", issues, readOnly: false, edit: ignore, onKindChanged: ignore }));
    expect(child).toContain("billing is a child of the router front");
  });

  it("offer the JSON view for a schema the field list cannot show, and count its size against 64 KB", () => {
    const schema = { type: "object", properties: { email: { type: "string", format: "email" } } };
    const html = render(createElement(OutputSchemaEditor, { value: { schema, strict: false }, base: "agents[1]", issues, readOnly: false, onChange: ignore }));
    expect(html).toContain('The field list cannot show this schema (email uses &quot;format&quot;); edit it in the JSON view.');
    expect(html).toContain(`${(JSON.stringify(schema).length / 1024).toFixed(1)} KB of 64 KB`);
  });
});
