import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { agentGraphSchema, type AgentGraph } from "@/lib/agents/schemas";
import { validateAgentGraph } from "@/lib/agents/validate";
import type { Guardrail } from "@/lib/guardrails/schemas";
import { Inspector } from "./inspector";
import { tryGuardrail } from "./guardrail-try-it";

const ignore = () => undefined;
const render = (graph: AgentGraph, issues = validateAgentGraph(graph)) =>
  renderToStaticMarkup(
    createElement(Inspector, { graph, selectedId: "agent:main", issues, readOnly: false, providers: [], discovered: new Map(), onDiscovered: ignore, onRenamed: ignore, edit: ignore }),
  ).replace(/<!-- -->/g, "");

const cards: Guardrail = { name: "no-cards", kind: "input", check: { type: "pii", detectors: ["card"] }, action: "block", maxRewrites: 1, parallel: false };

describe("the inspector's Guardrails section", () => {
  it("lists each guardrail with its kind, check fields and action, and offers to add one", () => {
    const graph = agentGraphSchema.parse({ entryAgent: "main", agents: [{ name: "main", guardrails: [cards, { name: "polite", kind: "output", check: { type: "judge", rubric: "Be polite." }, action: "block" }] }] });
    const html = render(graph);
    expect(html).toContain('aria-label="Guardrail 1"');
    expect(html).toContain('value="no-cards"');
    expect(html).toContain('<option value="input" selected="">Input (the task and follow-ups)</option>');
    expect(html).toMatch(/<input type="checkbox" checked=""\/>Card numbers \(Luhn-checked\)/);
    expect(html).toContain('<option value="judge" selected="">Model judge with a rubric</option>');
    expect(html).toContain(">Be polite.</textarea>");
    expect(html).toContain("Add guardrail");
    expect(html).toContain("Try it: a text to check");
  });

  it("shows the validator's message under the field it concerns", () => {
    const graph = agentGraphSchema.parse({ entryAgent: "main", agents: [{ name: "main", guardrails: [{ ...cards, action: "rewrite" }, { name: "r", kind: "input", check: { type: "regex", pattern: "(a)\\1" }, action: "log" }] }] });
    const html = render(graph);
    expect(html).toContain('data-testid="field-issues-agents[0].guardrails[0].action"');
    expect(html).toContain("only output guardrails may rewrite");
    expect(html).toContain('data-testid="field-issues-agents[0].guardrails[1].check.pattern"');
    expect(html).toContain("cannot be matched in linear time");
  });
});

describe("trying a guardrail in the browser", () => {
  it("trips a card check on a Luhn-valid card, passes a random number, and masks for a mask action", () => {
    const tripped = tryGuardrail(cards, "my card is 4242 4242 4242 4242");
    expect(tripped).toMatchObject({ kind: "verdict", verdict: { tripped: true, reason: "The text contains a card number." } });
    expect(tryGuardrail(cards, "order 4242 4242 4242 4241")).toMatchObject({ kind: "verdict", verdict: { tripped: false } });
    expect(tryGuardrail({ ...cards, action: "mask" }, "card 4242 4242 4242 4242 ok")).toMatchObject({ kind: "verdict", masked: "card [redacted card] ok" });
  });

  it("leaves judge, JSON schema and custom checks to the server and reports a pattern RE2 refuses", () => {
    expect(tryGuardrail({ ...cards, check: { type: "judge", rubric: "x", passAt: 0.5 } }, "hi")).toEqual({ kind: "server" });
    expect(tryGuardrail({ ...cards, check: { type: "json_schema", schema: {} } }, "{}")).toEqual({ kind: "server" });
    expect(tryGuardrail({ ...cards, check: { type: "custom", check: "prompt_injection" } }, "hi")).toEqual({ kind: "server" });
    expect(tryGuardrail({ ...cards, check: { type: "regex", pattern: "(?<=a)b", caseInsensitive: false } }, "ab")).toMatchObject({ kind: "error", message: expect.stringMatching(/linear time/) });
  });
});
