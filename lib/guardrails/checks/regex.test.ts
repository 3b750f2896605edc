import { afterEach, describe, expect, it, vi } from "vitest";
import { compileRegexCheck, evaluateDeterministicCheck } from "./index";

afterEach(() => vi.restoreAllMocks());

describe("regex checks: the positional search runs only on texts that match", () => {
  // A ~4 kB ticket with digits and words close to the pattern, but no match.
  const ticket = "Order A-1002 shipped on 2026-11-21; the customer asks about the secret sale and a pass word reset. ".repeat(42);
  const check = { type: "regex" as const, pattern: "(?:password|secret)\\s*[:=]", caseInsensitive: true };

  it("rules a text out on RE2's DFA without building a matcher (re2js's matcher backtracks from every offset)", () => {
    const matcher = vi.spyOn(compileRegexCheck(check), "matcher");
    const verdict = evaluateDeterministicCheck(check, ticket);
    expect(verdict).toEqual({ tripped: false, reason: "The text does not match the pattern.", findings: [] });
    expect(matcher).not.toHaveBeenCalled();
  });

  it("still reports every match's span when the text matches", () => {
    const matcher = vi.spyOn(compileRegexCheck(check), "matcher");
    const text = `${ticket}Password: hunter2 and SECRET=42`;
    const verdict = evaluateDeterministicCheck(check, text);
    expect(matcher).toHaveBeenCalledTimes(1);
    expect(verdict?.tripped).toBe(true);
    expect(verdict?.findings.map((finding) => text.slice(finding.start, finding.end))).toEqual(["Password:", "SECRET="]);
  });

  it("counts an empty match as a match, as before", () => {
    const verdict = evaluateDeterministicCheck({ type: "regex", pattern: "x*", caseInsensitive: false }, "abc");
    expect(verdict?.tripped).toBe(true);
    expect(verdict?.findings).toEqual([]);
  });
});
