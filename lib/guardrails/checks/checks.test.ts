import { describe, expect, it } from "vitest";
import { NonLinearPatternError } from "../../json-schema/linear-regexp";
import type { GuardrailCheck, GuardrailFinding } from "../schemas";
import { compileRegexCheck, evaluateDeterministicCheck, isDeterministicCheck, maskFindings, MAX_CHECKED_CHARS, MAX_FINDINGS } from "./index";
import { evaluateJsonSchemaCheck } from "./json-schema";

function evaluate(check: GuardrailCheck, text: string) {
  const verdict = evaluateDeterministicCheck(check, text);
  if (!verdict) throw new Error(`${check.type} should be deterministic`);
  return verdict;
}

describe("which checks run in the workflow", () => {
  it("decides regex, deny_list, pii and max_length, and leaves json_schema, judge and custom to an activity", () => {
    const deterministic: GuardrailCheck[] = [
      { type: "regex", pattern: "x", caseInsensitive: false },
      { type: "deny_list", terms: ["x"], caseSensitive: false },
      { type: "pii", detectors: ["email"] },
      { type: "max_length", chars: 3 },
    ];
    const elsewhere: GuardrailCheck[] = [
      { type: "json_schema", schema: { type: "object" } },
      { type: "judge", rubric: "polite", passAt: 0.5 },
      { type: "custom", check: "prompt_injection" },
    ];
    for (const check of deterministic) {
      expect(isDeterministicCheck(check)).toBe(true);
      expect(evaluateDeterministicCheck(check, "text")).not.toBeNull();
    }
    for (const check of elsewhere) {
      expect(isDeterministicCheck(check)).toBe(false);
      expect(evaluateDeterministicCheck(check, "text")).toBeNull();
    }
  });
});

describe("regex checks", () => {
  it("finds every match on RE2, with the case rule", () => {
    const text = "Order A-12 and a-7, then A-300.";
    const verdict = evaluate({ type: "regex", pattern: "A-\\d+", caseInsensitive: false }, text);
    expect(verdict.tripped).toBe(true);
    expect(verdict.findings.map((finding) => text.slice(finding.start, finding.end))).toEqual(["A-12", "A-300"]);
    expect(verdict.reason).toBe("The text matches the pattern (2 matches).");
    const folded = evaluate({ type: "regex", pattern: "A-\\d+", caseInsensitive: true }, text);
    expect(folded.findings.map((finding) => text.slice(finding.start, finding.end))).toEqual(["A-12", "a-7", "A-300"]);
    expect(evaluate({ type: "regex", pattern: "B-\\d+", caseInsensitive: false }, text)).toEqual({ tripped: false, reason: "The text does not match the pattern.", findings: [] });
  });

  it("reports spans in the text's own indices past characters outside the BMP", () => {
    const text = "😀 secret 😀 secret";
    const verdict = evaluate({ type: "regex", pattern: "secret", caseInsensitive: false }, text);
    expect(verdict.findings.map((finding) => text.slice(finding.start, finding.end))).toEqual(["secret", "secret"]);
  });

  it("refuses backreferences and lookaround with the pattern named", () => {
    expect(() => compileRegexCheck({ pattern: "(a)\\1", caseInsensitive: false })).toThrow(NonLinearPatternError);
    expect(() => compileRegexCheck({ pattern: "(?=a)b", caseInsensitive: true })).toThrow(/pattern "\(\?=a\)b" cannot be matched in linear time/);
  });

  it("runs a pattern that backtracks catastrophically on V8 in linear time", () => {
    const text = `${"a".repeat(50_000)}!`;
    const started = performance.now();
    const verdict = evaluate({ type: "regex", pattern: "^(a+)+$", caseInsensitive: false }, text);
    expect(verdict.tripped).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("keeps at most MAX_FINDINGS findings, the last covering the rest of the text so a mask hides it all", () => {
    const text = "x".repeat(MAX_FINDINGS + 50);
    const verdict = evaluate({ type: "regex", pattern: "x", caseInsensitive: false }, text);
    expect(verdict.findings).toHaveLength(MAX_FINDINGS + 1);
    expect(verdict.findings.at(-1)).toEqual({ detector: "regex", start: MAX_FINDINGS, end: text.length });
    expect(maskFindings(text, verdict.findings)).toBe("[redacted]");
  });
});

describe("deny-list checks", () => {
  const check: GuardrailCheck = { type: "deny_list", terms: ["refund", "chargeback fraud", "c++"], caseSensitive: false };

  it("finds whole words and phrases, whatever their case, and counts terms and occurrences", () => {
    const text = "A REFUND, a Chargeback Fraud, another refund; I code c++.";
    const verdict = evaluate(check, text);
    expect(verdict.tripped).toBe(true);
    expect(verdict.reason).toBe("The text contains 3 denied terms (4 occurrences).");
    expect(verdict.findings.map((finding) => text.slice(finding.start, finding.end))).toEqual(["REFUND", "Chargeback Fraud", "refund", "c++"]);
  });

  it("does not find a term inside a longer word", () => {
    expect(evaluate(check, "refunds are refundable; prerefund").tripped).toBe(false);
    expect(evaluate({ type: "deny_list", terms: ["café"], caseSensitive: false }, "cafés CAFÉ").findings).toEqual([{ detector: "deny_list", start: 6, end: 10 }]);
  });

  it("keeps the case when asked to", () => {
    const strict: GuardrailCheck = { type: "deny_list", terms: ["ACME"], caseSensitive: true };
    expect(evaluate(strict, "acme corp").tripped).toBe(false);
    expect(evaluate(strict, "ACME corp").tripped).toBe(true);
  });

  it("keeps indices right when lower-casing would change the text's length", () => {
    const text = "İstanbul refund";
    const verdict = evaluate(check, text);
    expect(verdict.findings.map((finding) => text.slice(finding.start, finding.end))).toEqual(["refund"]);
  });

  it("never quotes the terms it found", () => {
    expect(evaluate(check, "refund").reason).not.toContain("refund");
  });
});

describe("max_length checks", () => {
  it("trips past the limit and says both lengths", () => {
    expect(evaluate({ type: "max_length", chars: 5 }, "123456")).toEqual({ tripped: true, reason: "The text is 6 characters long, over the limit of 5.", findings: [] });
    expect(evaluate({ type: "max_length", chars: 5 }, "12345").tripped).toBe(false);
    expect(evaluate({ type: "max_length", chars: 1000 }, "x".repeat(1_500_000)).reason).toBe("The text is 1,500,000 characters long, over the limit of 1,000.");
  });
});

describe("bounded work", () => {
  it("checks a text over MAX_CHECKED_CHARS on its first MAX_CHECKED_CHARS and says so", () => {
    const text = `${"a ".repeat(MAX_CHECKED_CHARS / 2)}secret@example.com`;
    const verdict = evaluate({ type: "pii", detectors: ["email"] }, text);
    expect(verdict.tripped).toBe(false);
    expect(verdict.reason).toBe(`The text contains no email addresses (only the first 1,000,000 of its ${(text.length).toLocaleString("en-US")} characters were checked).`);
    const early = `me@example.com ${text}`;
    expect(evaluate({ type: "pii", detectors: ["email"] }, early).reason).toMatch(/^The text contains an email address \(only the first 1,000,000 of/);
  });

  it("scans a megabyte of digits, separators and @ signs in linear time (a quadratic scan would take minutes)", () => {
    const noisy = "4111 1111 1111 1112 - +1 (555) @@ a@b DE89 sk-x ".repeat(20_000).slice(0, MAX_CHECKED_CHARS);
    const started = performance.now();
    evaluate({ type: "pii", detectors: ["email", "phone", "card", "iban", "api_key"] }, noisy);
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});

describe("masking", () => {
  const finding = (detector: string, start: number, end: number): GuardrailFinding => ({ detector, start, end });

  it("merges overlapping and touching spans; a merged span of two kinds is plain [redacted]", () => {
    const text = "0123456789abcdef";
    expect(maskFindings(text, [finding("card", 2, 6), finding("card", 4, 8)])).toBe("01[redacted card]89abcdef");
    expect(maskFindings(text, [finding("email", 2, 6), finding("phone", 6, 8)])).toBe("01[redacted]89abcdef");
    expect(maskFindings(text, [finding("regex", 10, 12), finding("email", 0, 2)])).toBe("[redacted email]23456789[redacted]cdef");
  });

  it("gives the same text whatever order the findings come in, clamping spans to the text and skipping empty ones", () => {
    const text = "abcdefgh";
    const findings = [finding("iban", 6, 99), finding("api_key", 1, 3), finding("card", 4, 4), finding("api_key", 2, 4), finding("iban", -5, 0)];
    const expected = "a[redacted api key]ef[redacted iban]";
    expect(maskFindings(text, findings)).toBe(expected);
    expect(maskFindings(text, [...findings].reverse())).toBe(expected);
    expect(maskFindings(text, [])).toBe(text);
  });
});

describe("json_schema checks (an activity)", () => {
  const check = { type: "json_schema" as const, schema: { type: "object", properties: { amount: { type: "number", maximum: 1000 } }, required: ["amount"], additionalProperties: false } };

  it("passes JSON matching the schema and trips on anything else, without quoting the text", () => {
    expect(evaluateJsonSchemaCheck(check, '{"amount": 20}').tripped).toBe(false);
    expect(evaluateJsonSchemaCheck(check, "not json").reason).toBe("The text is not JSON, so it cannot match the schema.");
    const tooBig = evaluateJsonSchemaCheck(check, '{"amount": 5000}');
    expect(tooBig.tripped).toBe(true);
    expect(tooBig.reason).toContain("/amount");
    const extra = evaluateJsonSchemaCheck(check, '{"amount": 1, "sk_secret_field": 2}');
    expect(extra.tripped).toBe(true);
    expect(extra.reason).not.toContain("sk_secret_field");
  });

  it("trips on a text too long to parse whole", () => {
    expect(evaluateJsonSchemaCheck(check, " ".repeat(MAX_CHECKED_CHARS + 1)).tripped).toBe(true);
  });
});
