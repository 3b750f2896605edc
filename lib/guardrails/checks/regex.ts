// Regex checks on RE2 (linear time whatever the pattern): a builder's pattern
// is compiled once per pattern and flag and kept, bounded.
import type { RE2JS } from "re2js";
import { compileLinear } from "../../json-schema/linear-regexp";
import type { GuardrailCheck } from "../schemas";
import type { FindingList } from "./text";

type RegexCheck = Extract<GuardrailCheck, { type: "regex" }>;

const compiled = new Map<string, RE2JS>();
const COMPILED_KEPT = 200;

/** The check's pattern compiled for RE2; throws NonLinearPatternError (its message names the pattern) when RE2 refuses it. */
export function compileRegexCheck(check: Pick<RegexCheck, "pattern" | "caseInsensitive">): RE2JS {
  const key = `${check.caseInsensitive ? "i" : "-"}:${check.pattern}`;
  const hit = compiled.get(key);
  if (hit) return hit;
  // Compile the pattern as written first, so a refusal quotes what the builder wrote.
  const pattern = compileLinear(check.pattern);
  const regex = check.caseInsensitive ? compileLinear(`(?i)${check.pattern}`) : pattern;
  compiled.set(key, regex);
  if (compiled.size > COMPILED_KEPT) compiled.delete(compiled.keys().next().value ?? key);
  return regex;
}

/** Every match, as findings (an empty match counts as one, without a span); returns how many matches. */
export function findMatches(check: RegexCheck, text: string, findings: FindingList): number {
  const regex = compileRegexCheck(check);
  // Most texts do not match. re2js answers "any match?" on its DFA, but a search that must report
  // positions (a matcher) runs its bit-state backtracker from every offset: ~6× slower on a 4 kB
  // text that does not match (bench/guardrails.ts). So rule the text out first, as RE2 itself does.
  if (!regex.test(text)) return 0;
  const matcher = regex.matcher(text);
  let matches = 0;
  while (!findings.isFull && matcher.find()) {
    matches += 1;
    findings.add("regex", matcher.start(), matcher.end());
  }
  return matches;
}
