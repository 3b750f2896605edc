// The pure parts of online evaluation: what a claim decides (sample, cap), how
// checks become scores and a mean, and which configurations are refused.
import { describe, expect, it } from "vitest";
import { claimStatus } from "./claim";
import { guardrailScore, guardrailTextOf, meanScoreOf, scoredItemOf } from "./scoring";
import { evaluatorCheckIssues } from "./validate";
import { createEvaluatorInput, inSample, type EvaluatorCheck } from "./schemas";

const noSchemaProblems = () => [];

describe("a claim's decision", () => {
  const config = { id: "oev_abcdefgh", samplingRate: 1, dailySpendCapUsd: null };
  it("is pending at full sampling and no cap", () => {
    expect(claimStatus(config, "run-1", 1_000)).toBe("pending");
  });
  it("skips out-of-sample runs by the run id, the same way every time", () => {
    const ids = Array.from({ length: 200 }, (_, i) => `run-${i}`);
    const decided = ids.map((id) => claimStatus({ ...config, samplingRate: 0.3 }, id, 0));
    expect(decided).toEqual(ids.map((id) => claimStatus({ ...config, samplingRate: 0.3 }, id, 0)));
    expect(decided.filter((s) => s === "skipped_sampling").length).toBe(ids.filter((id) => !inSample(config.id, id, 0.3)).length);
    const share = decided.filter((s) => s === "pending").length / ids.length;
    expect(share).toBeGreaterThan(0.15);
    expect(share).toBeLessThan(0.45);
  });
  it("skips for the cap once today's spend reached it, sampling first", () => {
    expect(claimStatus({ ...config, dailySpendCapUsd: 1 }, "run-1", 0.99)).toBe("pending");
    expect(claimStatus({ ...config, dailySpendCapUsd: 1 }, "run-1", 1)).toBe("skipped_cap");
    expect(claimStatus({ ...config, samplingRate: 0, dailySpendCapUsd: 1 }, "run-1", 5)).toBe("skipped_sampling");
  });
});

describe("scores", () => {
  const check: Extract<EvaluatorCheck, { source: "guardrail" }> = { source: "guardrail", name: "no-cards", on: "output", check: { type: "pii", detectors: ["card"] } };
  it("a guardrail passes as 1 and trips as 0, named guardrail:<name>", () => {
    expect(guardrailScore(check, { tripped: false, reason: "clean", findings: [] })).toEqual({ scorer: "guardrail:no-cards", value: 1, pass: true, detail: "clean" });
    expect(guardrailScore(check, { tripped: true, reason: "a card", findings: [] })).toMatchObject({ value: 0, pass: false });
  });
  it("a guardrail reads the task or the answer, a typed answer as JSON", () => {
    expect(guardrailTextOf("input", { output: "out", outputData: null }, "task")).toBe("task");
    expect(guardrailTextOf("output", { output: "out", outputData: null }, "task")).toBe("out");
    expect(guardrailTextOf("output", { output: null, outputData: { a: 1 } }, "task")).toBe('{"a":1}');
    expect(guardrailTextOf("output", { output: null, outputData: null }, "task")).toBe("");
  });
  it("the mean counts the scores that decided only; none decided is null", () => {
    expect(meanScoreOf([{ value: 1, pass: true }, { value: 0, pass: false }, { value: 0, pass: null }])).toBe(0.5);
    expect(meanScoreOf([{ value: 0, pass: null }])).toBeNull();
    expect(meanScoreOf([])).toBeNull();
  });
  it("the scorers compare the run with the evaluator's expectations and the run's own task", () => {
    expect(scoredItemOf("the task", { output: "yes", routing: { target: "billing" } })).toEqual({ input: { task: "the task" }, expected: { output: "yes", routing: { target: "billing" } } });
    expect(scoredItemOf("t", {})).toEqual({ input: { task: "t" }, expected: {} });
  });
});

describe("an evaluator's checks", () => {
  it("pass when every scorer and check can run", () => {
    const checks = createEvaluatorInput.parse({ name: "ok", graph: "g", checks: [{ source: "scorer", scorer: { kind: "exact" } }, { source: "guardrail", name: "re", on: "output", check: { type: "regex", pattern: "refund" } }] }).checks;
    expect(evaluatorCheckIssues(checks, noSchemaProblems)).toEqual([]);
  });
  it("name each check that cannot run, by path", () => {
    const checks: EvaluatorCheck[] = [
      { source: "scorer", scorer: { kind: "custom", name: "nope" } },
      { source: "guardrail", name: "backref", on: "output", check: { type: "regex", pattern: "(a)\\1", caseInsensitive: false } },
      { source: "guardrail", name: "judge", on: "output", check: { type: "judge", rubric: "r", model: "bogus", passAt: 0.5 } },
      { source: "guardrail", name: "schema", on: "output", check: { type: "json_schema", schema: { type: "nope" } } },
    ];
    const issues = evaluatorCheckIssues(checks, (schema) => ((schema as { type?: string }).type === "nope" ? ["type must be a JSON type"] : []));
    expect(issues.map((i) => i.path)).toEqual(["checks.0.scorer.name", "checks.1.check.pattern", "checks.2.check.model", "checks.3.check.schema"]);
  });
  it("refuses the same check twice by its score's name", () => {
    const parsed = createEvaluatorInput.safeParse({ name: "dup", graph: "g", checks: [{ source: "scorer", scorer: { kind: "exact" } }, { source: "scorer", scorer: { kind: "exact", caseSensitive: true } }] });
    expect(parsed.success).toBe(false);
  });
});
