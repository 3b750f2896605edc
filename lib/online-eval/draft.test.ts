// The evaluator form's draft: typed fields become the contract's input, the
// form's live messages are the schema's own, and an evaluator reads back into
// the same draft.
import { describe, expect, it } from "vitest";
import { createEvaluatorInput, type EvaluatorView } from "./schemas";
import { yesterdayInputs, checkOf, createInputOf, draftIssues, draftOfView, EMPTY_EVALUATOR_DRAFT, emptyCheck, issueKey, serverIssues, updateInputOf, type EvaluatorDraft } from "./draft";

const judge = { ...emptyCheck("scorer:judge"), fields: { rubric: "Is the answer polite and on topic?" } };
const pii = { ...emptyCheck("guardrail:pii"), guardName: "no-card", on: "output" as const, detectors: ["card" as const] };
const draft: EvaluatorDraft = { ...EMPTY_EVALUATOR_DRAFT, name: "support-quality", graph: "support-triage", checks: [judge, pii], samplingPercent: "50", delaySeconds: "5", dailySpendCapUsd: "2" };

describe("the evaluator form's draft", () => {
  it("becomes an input the contract accepts: a judge with its rubric and a PII card guardrail on the answer", () => {
    const input = createEvaluatorInput.parse(createInputOf(draft));
    expect(input).toMatchObject({ name: "support-quality", graph: "support-triage", samplingRate: 0.5, delaySeconds: 5, dailySpendCapUsd: 2, version: null, label: null });
    expect(input.checks).toEqual([
      { source: "scorer", scorer: { kind: "judge", rubric: "Is the answer polite and on topic?" } },
      { source: "guardrail", name: "no-card", on: "output", check: { type: "pii", detectors: ["card"] } },
    ]);
    expect(draftIssues(draft).size).toBe(0);
  });

  it("names each field the server would refuse, live", () => {
    const issues = draftIssues({ ...draft, name: "Bad Name", samplingPercent: "150", delaySeconds: "soon", checks: [{ ...judge, fields: { rubric: "" } }] });
    expect([...issues.keys()].sort()).toEqual(["checks.0.scorer.rubric", "delaySeconds", "name", "samplingPercent"]);
    expect(draftIssues({ ...draft, checks: [] }).get("checks")).toBe("give at least one check");
    expect(draftIssues({ ...draft, checks: [judge, judge] }).get("checks.1"), "a check listed twice").toContain("listed twice");
  });

  it("turns typed numbers, lists and JSON into the checks' fields", () => {
    expect(checkOf({ ...emptyCheck("scorer:latency"), fields: { maxMs: "2500" } })).toEqual({ source: "scorer", scorer: { kind: "latency", maxMs: 2500 } });
    expect(checkOf({ ...emptyCheck("guardrail:deny_list"), guardName: "words", fields: { terms: "refund, lawsuit\nchargeback" } })).toMatchObject({ check: { type: "deny_list", terms: ["refund", "lawsuit", "chargeback"] } });
    expect(checkOf({ ...emptyCheck("scorer:json_field"), fields: { path: "answer.total", equals: "42" } })).toEqual({ source: "scorer", scorer: { kind: "json_field", path: "answer.total", equals: 42 } });
  });

  it("edits everything but the name and the graph", () => {
    const update = updateInputOf({ ...draft, editing: "oev_abcdefgh12" });
    expect(update).toMatchObject({ id: "oev_abcdefgh12", samplingRate: 0.5 });
    expect(update).not.toHaveProperty("name");
    expect(update).not.toHaveProperty("graph");
    expect(draftIssues({ ...draft, editing: "oev_abcdefgh12" }).size).toBe(0);
  });

  it("reads an evaluator back into the draft it was made from", () => {
    const input = createEvaluatorInput.parse(createInputOf(draft));
    const view: EvaluatorView = { ...input, id: "oev_abcdefgh12", activeFrom: "", createdAt: "", updatedAt: "", stats: { spentTodayUsd: 0, last24h: { pending: 0, scored: 0, skipped_sampling: 0, skipped_cap: 0, failed: 0 }, meanScore24h: null } };
    expect(createEvaluatorInput.parse(createInputOf(draftOfView(view)))).toEqual(input);
  });

  it("keys the server's paths as the form does", () => {
    expect(issueKey("checks[1].check.pattern")).toBe("checks.1.check.pattern");
    expect(serverIssues([{ path: "samplingRate", message: "too big" }]).get("samplingPercent")).toBe("too big");
  });
});

describe("the backfill dialog's default", () => {
  it("is yesterday, midnight to midnight in the user's zone (across a month's end too)", () => {
    expect(yesterdayInputs(new Date(2026, 10, 30, 18, 5))).toEqual({ from: "2026-11-29T00:00", to: "2026-11-30T00:00" });
    expect(yesterdayInputs(new Date(2026, 11, 1, 0, 30))).toEqual({ from: "2026-11-30T00:00", to: "2026-12-01T00:00" });
  });
});
