import { describe, expect, it } from "vitest";
import { scoreCost, scoreLatency, scoreTokens } from "./budget";
import { unknownCustomScorers, customScorerNames } from "./custom";
import { item, observed, calls } from "./test-fixtures";
import { scoreJsonField, scoreJsonSchema } from "./json";
import { scoreRecorded } from "./recorded";
import { scorePlan, scoreRouting } from "./orchestration";
import { scoreRun, scorerListSchema } from "./score-run";
import { scoreContains, scoreExact } from "./text";
import { scorerConfigSchema } from "./types";

const noJudge = { judge: () => Promise.reject(new Error("no judge in this test")) };

describe("exact and contains", () => {
  it("exact compares trimmed text, case-sensitive by default", () => {
    expect(scoreExact(observed({ output: "  Balance: 120 EUR\n" }), item({ output: "Balance: 120 EUR" }), {})).toMatchObject({ value: 1, pass: true });
    expect(scoreExact(observed({ output: "balance: 120 eur" }), item({ output: "Balance: 120 EUR" }), {}).pass).toBe(false);
    expect(scoreExact(observed({ output: "balance: 120 eur" }), item({ output: "Balance: 120 EUR" }), { caseSensitive: false }).pass).toBe(true);
  });

  it("exact names both texts on a miss, and is undecided without an expected output", () => {
    const miss = scoreExact(observed({ output: "120" }), item({ output: "130" }), {});
    expect(miss.detail).toBe('expected "130", got "120"');
    expect(scoreExact(observed({ output: "120" }), item({}), {})).toMatchObject({ pass: null });
  });

  it("a failed run without an answer fails with its reason", () => {
    const score = scoreExact(observed({ status: "failed", errorReason: "budget exceeded" }), item({ output: "x" }), {});
    expect(score).toMatchObject({ value: 0, pass: false, detail: "the run gave no answer (failed: budget exceeded)" });
  });

  it("contains defaults to the expected output, ignoring case and whitespace runs; a configured text wins", () => {
    const run = observed({ output: "Your balance is\n120  EUR today." });
    expect(scoreContains(run, item({ output: "120 eur" }), {}).pass).toBe(true);
    expect(scoreContains(run, item({ output: "120 eur" }), { text: "USD" }).pass).toBe(false);
    expect(scoreContains(run, item({}), {})).toMatchObject({ pass: null });
  });
});

describe("JSON scorers", () => {
  const schema = { type: "object", properties: { total: { type: "number" } }, required: ["total"] };

  it("json_schema checks the typed answer, else the text answer read as JSON (fenced is fine)", () => {
    expect(scoreJsonSchema(observed({ outputData: { total: 3 } }), schema).pass).toBe(true);
    expect(scoreJsonSchema(observed({ output: '```json\n{"total": 4}\n```' }), schema).pass).toBe(true);
    const wrong = scoreJsonSchema(observed({ outputData: { total: "3" } }), schema);
    expect(wrong.pass).toBe(false);
    expect(wrong.detail).toContain("/total must be number");
    expect(scoreJsonSchema(observed({ output: "three" }), schema).detail).toContain("the answer is not JSON");
  });

  it("json_field reads a dotted path (array indexes too) against `equals` or the item's expected answer", () => {
    const run = observed({ outputData: { order: { lines: [{ sku: "A-1", qty: 2 }] } } });
    expect(scoreJsonField(run, item({}), { path: "order.lines.0.sku", equals: "A-1", hasEquals: true }).pass).toBe(true);
    expect(scoreJsonField(run, item({ outputData: { order: { lines: [{ qty: 3 }] } } }), { path: "order.lines.0.qty", hasEquals: false })).toMatchObject({
      pass: false,
      detail: "order.lines.0.qty: expected 3, got 2",
    });
    expect(scoreJsonField(run, item({}), { path: "order.total", equals: 1, hasEquals: true }).detail).toBe("the answer has no order.total");
    expect(scoreJsonField(run, item({}), { path: "order.total", hasEquals: false }).pass).toBeNull();
  });

  it("json_field compares objects regardless of key order; `equals: null` is a real expectation", () => {
    const run = observed({ outputData: { a: { x: 1, y: 2 }, b: null } });
    expect(scoreJsonField(run, item({}), { path: "a", equals: { y: 2, x: 1 }, hasEquals: true }).pass).toBe(true);
    expect(scoreJsonField(run, item({}), { path: "b", equals: null, hasEquals: true }).pass).toBe(true);
  });
});

describe("routing and plan", () => {
  it("routing: expected target hit, and the fallback as expected", () => {
    const expected = item({ routing: { target: "billing", fallback: false } });
    expect(scoreRouting(observed({ routing: [{ target: "billing", fallback: false }] }), expected)).toMatchObject({ value: 1, pass: true });
    expect(scoreRouting(observed({ routing: [{ target: "support", fallback: true }] }), expected)).toMatchObject({ value: 0, pass: false });
    const half = scoreRouting(observed({ routing: [{ target: "billing", fallback: true }] }), expected);
    expect(half).toMatchObject({ value: 0.5, pass: false });
    expect(half.detail).toContain("fallback taken, not expected");
  });

  it("routing uses the first decision and mentions re-routes; no routing fails; no expectation is undecided", () => {
    const score = scoreRouting(observed({ routing: [{ target: "support", fallback: false }, { target: "billing", fallback: false }] }), item({ routing: { target: "billing" } }));
    expect(score.pass).toBe(false);
    expect(score.detail).toContain("re-routed 1 time(s): billing");
    expect(scoreRouting(observed(), item({ routing: { target: "billing" } })).detail).toContain("not routed");
    expect(scoreRouting(observed(), item({})).pass).toBeNull();
  });

  it("plan: valid, cards used, node count, outcome — value is the share of checks met", () => {
    const plan = { valid: true, cards: ["lookup", "summarize"], nodeCount: 3, outcome: "completed" };
    expect(scorePlan(observed({ plan }), item({ plan: { cards: ["lookup"], nodeCount: 3, outcome: "completed" } }))).toMatchObject({ value: 1, pass: true });
    const partial = scorePlan(observed({ plan: { ...plan, nodeCount: 4 } }), item({ plan: { cards: ["lookup", "refund"], nodeCount: 3 } }));
    expect(partial.value).toBeCloseTo(1 / 3);
    expect(partial.detail).toBe("valid plan; cards not used: refund; 4 node(s), expected 3");
    expect(scorePlan(observed(), item({ plan: {} }))).toMatchObject({ value: 0, pass: false, detail: "the run made no plan" });
  });
});

describe("recorded history only", () => {
  it("passes a run on recorded or live steps; fails one with an edited step, naming each with who and when", () => {
    expect(scoreRecorded(observed({ toolCalls: calls(["get_balance", {}]) }))).toEqual({ scorer: "recorded", value: 1, pass: true, detail: "every step was recorded or ran live" });
    const one = scoreRecorded(observed({ editedSteps: ["result of tool get_balance (call c1) at iteration 1 (edited by bo@zap.local at 2026-12-01T10:00:00.000Z)"] }));
    expect(one).toEqual({ scorer: "recorded", value: 0, pass: false, detail: "1 edited step, not recordings: result of tool get_balance (call c1) at iteration 1 (edited by bo@zap.local at 2026-12-01T10:00:00.000Z)" });
    const many = scoreRecorded(observed({ editedSteps: ["s1", "s2", "s3", "s4", "s5"] }));
    expect(many.detail).toBe("5 edited steps, not recordings: s1; s2; s3; and 2 more");
  });

  it("is a scorer an experiment or an evaluator can list, with nothing to set", () => {
    expect(scorerConfigSchema.parse({ kind: "recorded" })).toEqual({ kind: "recorded" });
    expect(scorerConfigSchema.safeParse({ kind: "recorded", strict: true }).success, "unknown keys refused").toBe(false);
  });
});

describe("budget scorers", () => {
  it("pass within the limit; over it the value is limit / used", () => {
    expect(scoreLatency(observed({ latencyMs: 900 }), 1000)).toMatchObject({ value: 1, pass: true });
    expect(scoreLatency(observed({ latencyMs: 2000 }), 1000)).toMatchObject({ value: 0.5, pass: false, detail: "2000 ms over the limit of 1000 ms" });
    expect(scoreTokens(observed({ inputTokens: 300, outputTokens: 100 }), 200)).toMatchObject({ value: 0.5, pass: false });
    expect(scoreCost(observed({ costUsd: 0.01 }), 0.02).pass).toBe(true);
  });
});

describe("scorer configs and scoreRun", () => {
  it("refuses unknown keys and bad paths", () => {
    expect(scorerConfigSchema.safeParse({ kind: "exact", caseSensitiv: true }).success).toBe(false);
    expect(scorerConfigSchema.safeParse({ kind: "json_field", path: "a..b" }).success).toBe(false);
    expect(scorerConfigSchema.safeParse({ kind: "trajectory", order: "strict", arguments: "subset" }).success).toBe(true);
  });

  it("the list refuses duplicates and unknown custom scorers, naming the known ones", () => {
    const duplicate = scorerListSchema.safeParse([{ kind: "exact" }, { kind: "exact", caseSensitive: false }]);
    expect(duplicate.error?.issues[0]?.message).toBe('scorer "exact" is listed twice');
    const unknown = scorerListSchema.safeParse([{ kind: "custom", name: "nope" }]);
    expect(unknown.error?.issues[0]?.message).toBe(`unknown custom scorer "nope" (known: ${customScorerNames().join(", ")})`);
    expect(unknownCustomScorers([{ kind: "custom", name: "no-tool-errors" }])).toEqual([]);
  });

  it("scores in the configured order with stable names, the example custom scorer included", async () => {
    const run = observed({ output: "120 EUR", toolCalls: [...calls(["get_balance", {}]), { tool: "transfer", arguments: {}, outcome: "rejected", replayed: false, edited: false }] });
    const scores = await scoreRun(run, item({ output: "120 EUR" }), [{ kind: "exact" }, { kind: "custom", name: "no-tool-errors" }, { kind: "tokens", max: 1000 }], noJudge);
    expect(scores.map((score) => score.scorer)).toEqual(["exact", "custom:no-tool-errors", "tokens"]);
    expect(scores[1]).toMatchObject({ value: 0.5, pass: false, detail: "1 of 2 tool call(s) did not succeed: transfer (rejected)" });
  });
});
