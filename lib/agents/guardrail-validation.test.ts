import { describe, expect, it } from "vitest";
import { checkJsonSchema } from "../json-schema/validator";
import type { GuardrailInput } from "../guardrails/schemas";
import { diffGraphs } from "./graph-diff";
import { summarizeGraphChanges } from "./graph-change-summary";
import { agentGraphSchema, type AgentGraphInput } from "./schemas";
import { validateAgentGraph } from "./validate";

const cardBlock: GuardrailInput = { name: "no-cards", kind: "input", check: { type: "pii", detectors: ["card"] }, action: "block" };

function withGuardrails(guardrails: GuardrailInput[], extra: Record<string, unknown> = {}): AgentGraphInput {
  return { entryAgent: "main", agents: [{ name: "main", tools: ["calculator", "ledger_transfer"], guardrails, ...extra }] } as AgentGraphInput;
}

/** Every error and warning as "path: code". */
function issues(input: AgentGraphInput) {
  const result = validateAgentGraph(input, { jsonSchemaProblems: checkJsonSchema });
  return { result, errors: result.errors.map((e) => `${e.path}: ${e.code}`), warnings: result.warnings.map((w) => `${w.path}: ${w.code}`), messages: [...result.errors, ...result.warnings].map((e) => e.message) };
}

describe("guardrails on the agent graph", () => {
  it("load from graphs saved before guardrails existed (none) and keep their defaults when given", () => {
    const old = agentGraphSchema.parse({ entryAgent: "main", agents: [{ name: "main" }] });
    expect(old.agents[0]?.guardrails).toEqual([]);
    const parsed = agentGraphSchema.parse(withGuardrails([cardBlock]));
    expect(parsed.agents[0]?.guardrails).toEqual([{ ...cardBlock, maxRewrites: 1, parallel: false }]);
  });

  it("accepts a valid set: PII block on input, judge on output, mask, rewrite, a tool_call inbox on a tool", () => {
    const { result, errors } = issues(
      withGuardrails([
        { ...cardBlock, parallel: true },
        { name: "polite", kind: "output", check: { type: "judge", rubric: "The answer is polite.", model: "demo/judge" }, action: "rewrite", maxRewrites: 2 },
        { name: "mask-mail", kind: "output", check: { type: "pii", detectors: ["email"] }, action: "mask" },
        { name: "big-transfer", kind: "tool_call", tools: ["ledger_*"], check: { type: "json_schema", schema: { type: "object", properties: { amount: { type: "number", maximum: 1000 } } } }, action: "inbox" },
        { name: "injection", kind: "tool_result", check: { type: "custom", check: "prompt_injection" }, action: "log" },
      ]),
    );
    expect(errors).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it("refuses more than 20 guardrails and unknown fields", () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ ...cardBlock, name: `g${i}` }));
    expect(issues(withGuardrails(many)).errors).toEqual(["agents[0].guardrails: invalid"]);
    expect(issues(withGuardrails([{ ...cardBlock, severity: "high" } as GuardrailInput])).errors).toEqual(["agents[0].guardrails[0]: invalid"]);
  });

  it.each<[string, GuardrailInput, string, RegExp]>([
    ["tools on an input guardrail", { ...cardBlock, tools: ["calculator"] }, "agents[0].guardrails[1].tools: invalid_guardrail", /only tool guardrails/],
    ["parallel on an output guardrail", { ...cardBlock, kind: "output", parallel: true }, "agents[0].guardrails[1].parallel: invalid_guardrail", /only input guardrails/],
    ["mask on a judge", { name: "j", kind: "output", check: { type: "judge", rubric: "x" }, action: "mask" }, "agents[0].guardrails[1].action: invalid_guardrail", /regex, deny-list or PII/],
    ["mask on max_length", { name: "m", kind: "input", check: { type: "max_length", chars: 10 }, action: "mask" }, "agents[0].guardrails[1].action: invalid_guardrail", /max_length check finds no spans/],
    ["rewrite on input", { ...cardBlock, action: "rewrite" }, "agents[0].guardrails[1].action: invalid_guardrail", /only output guardrails may rewrite/],
    ["inbox on tool_result", { name: "t", kind: "tool_result", check: { type: "pii", detectors: ["email"] }, action: "inbox" }, "agents[0].guardrails[1].action: invalid_guardrail", /only tool_call guardrails/],
    ["a backreference", { name: "r", kind: "input", check: { type: "regex", pattern: "(a)\\1" }, action: "block" }, "agents[0].guardrails[1].check.pattern: invalid_guardrail", /cannot be matched in linear time/],
    ["lookahead", { name: "r", kind: "input", check: { type: "regex", pattern: "x(?=y)" }, action: "block" }, "agents[0].guardrails[1].check.pattern: invalid_guardrail", /pattern "x\(\?=y\)"/],
    ["a bad judge model", { name: "j", kind: "output", check: { type: "judge", rubric: "x", model: "gpt-4" }, action: "block" }, "agents[0].guardrails[1].check.model: invalid_guardrail", /openai\/<model>/],
    ["an unknown custom check", { name: "c", kind: "input", check: { type: "custom", check: "run_my_script" }, action: "block" }, "agents[0].guardrails[1].check.check: invalid_guardrail", /no custom check is named "run_my_script": use a built-in check \(prompt_injection/],
    ["a schema that does not compile", { name: "s", kind: "tool_call", check: { type: "json_schema", schema: { type: "object", properties: { a: { type: "strnig" } } } }, action: "block" }, "agents[0].guardrails[1].check.schema: invalid_guardrail", /not a valid JSON Schema/],
    ["a bad tool glob", { name: "t", kind: "tool_call", tools: ["ledger transfer"], check: { type: "max_length", chars: 100 }, action: "block" }, "agents[0].guardrails[1].tools[0]: invalid_guardrail", /tool name or glob/],
    ["a taken name", { ...cardBlock, kind: "output" }, "agents[0].guardrails[1].name: duplicate_guardrail", /another guardrail of this agent is named "no-cards" \(guardrails\[0\]\)/],
    ["an upper-case name", { ...cardBlock, name: "No-Cards" }, "agents[0].guardrails[1].name: invalid", /lowercase/],
  ])("refuses %s, at its field", (_label, guardrail, expected, message) => {
    const { result, errors } = issues(withGuardrails([cardBlock, guardrail]));
    expect(result.ok).toBe(false);
    expect(errors).toContain(expected);
    const issue = result.errors.find((e) => `${e.path}: ${e.code}` === expected);
    expect(issue?.message).toMatch(message);
  });

  it("warns about a guardrail that never acts: a tool glob matching no tool, a tool guardrail on an agent without tools, a pattern matching every text", () => {
    expect(issues(withGuardrails([{ name: "t", kind: "tool_call", tools: ["send_*"], check: { type: "max_length", chars: 100 }, action: "block" }])).warnings).toEqual(["agents[0].guardrails[0].tools[0]: pattern_matches_nothing"]);
    expect(issues(withGuardrails([{ name: "t", kind: "tool_result", check: { type: "max_length", chars: 100 }, action: "log" }], { tools: [] })).warnings).toEqual(["agents[0].guardrails[0].kind: pattern_matches_nothing"]);
    const everything = issues(withGuardrails([{ name: "r", kind: "input", check: { type: "regex", pattern: "a*" }, action: "log" }]));
    expect(everything.errors).toEqual([]);
    expect(everything.warnings).toEqual(["agents[0].guardrails[0].check.pattern: invalid_guardrail"]);
    expect(everything.messages).toEqual(["the pattern matches an empty text, so it trips on every text"]);
  });

  it("shows a guardrail added or changed in the version diff and the change summary", () => {
    const before = agentGraphSchema.parse(withGuardrails([cardBlock]));
    const after = agentGraphSchema.parse(withGuardrails([{ ...cardBlock, action: "mask" }, { name: "polite", kind: "output", check: { type: "judge", rubric: "Polite." }, action: "block" }]));
    const fields = diffGraphs(before, after).fields.map((field) => field.path);
    expect(fields).toEqual(['agents["main"].guardrails[0].action', 'agents["main"].guardrails[1]']);
    expect(diffGraphs(before, after).nodes.get("agent:main")).toBe("changed");
    expect(summarizeGraphChanges(before, after)).toEqual(["guardrails of main changed"]);
  });
});
