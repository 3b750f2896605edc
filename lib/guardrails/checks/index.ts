// The deterministic guardrail checks: pure functions of a text, importable from
// Temporal workflow code (no Node built-ins, no clock, no randomness, no code
// generation, no zod at run time) and from the designer's browser, so a check
// decided in a workflow is replayed, never re-decided, and the designer's "try
// it" box shows what the engine would decide. json_schema (Ajv), judge (a
// model) and custom checks run in worker activities instead.
import type { GuardrailCheck, GuardrailFinding, GuardrailVerdict, PiiDetector } from "../schemas";
import { findDeniedTerms } from "./deny-list";
import { findCards, findIbans } from "./pii-card-iban";
import { findEmails, findPhones } from "./pii-contact";
import { findApiKeys } from "./pii-secrets";
import { findMatches } from "./regex";
import { checkedPart, FindingList, formatCount, plural } from "./text";

export { maskFindings, placeholderFor } from "./mask";
export { compileRegexCheck } from "./regex";
export { foldCase } from "./deny-list";
export { luhnValid, ibanChecksumValid } from "./pii-card-iban";
export { MAX_CHECKED_CHARS, MAX_FINDINGS } from "./text";

export type DeterministicCheck = Extract<GuardrailCheck, { type: "regex" | "deny_list" | "pii" | "max_length" }>;
export type DeterministicCheckType = DeterministicCheck["type"];

const DETERMINISTIC: readonly string[] = ["regex", "deny_list", "pii", "max_length"] satisfies readonly DeterministicCheckType[];

/** Whether the check is decided by evaluateDeterministicCheck (in the workflow); else an activity decides it. */
export function isDeterministicCheck(check: GuardrailCheck): check is DeterministicCheck {
  return DETERMINISTIC.includes(check.type);
}

/**
 * The verdict of a deterministic check (regex, deny_list, pii, max_length) on `text`, with its findings
 * sorted by position; null for json_schema, judge and custom, which run in an activity on the worker.
 * A text over MAX_CHECKED_CHARS is checked on its first MAX_CHECKED_CHARS characters and the reason
 * says so. The reason never quotes what was found.
 */
export function evaluateDeterministicCheck(check: GuardrailCheck, text: string): GuardrailVerdict | null {
  switch (check.type) {
    case "max_length":
      return text.length > check.chars
        ? verdict(true, `The text is ${formatCount(text.length)} characters long, over the limit of ${formatCount(check.chars)}.`, [])
        : verdict(false, `The text is ${formatCount(text.length)} characters long, within the limit of ${formatCount(check.chars)}.`, []);
    case "regex": {
      const part = checkedPart(text);
      const findings = new FindingList(part.text.length);
      const matches = findMatches(check, part.text, findings);
      return matches > 0
        ? verdict(true, `The text matches the pattern (${plural(matches, "match", "matches")})${part.note}.`, findings.items)
        : verdict(false, `The text does not match the pattern${part.note}.`, []);
    }
    case "deny_list": {
      const part = checkedPart(text);
      const findings = new FindingList(part.text.length);
      const terms = findDeniedTerms(check, part.text, findings);
      return terms > 0
        ? verdict(true, `The text contains ${plural(terms, "denied term", "denied terms")} (${plural(findings.items.length, "occurrence", "occurrences")})${part.note}.`, findings.items)
        : verdict(false, `The text contains none of the ${plural(check.terms.length, "denied term", "denied terms")}${part.note}.`, []);
    }
    case "pii": {
      const part = checkedPart(text);
      const findings = findPii(check.detectors, part.text);
      if (findings.length === 0) return verdict(false, `The text contains no ${listOf(uniqueDetectors(check.detectors).map((detector) => PII_NAMES[detector].many), "or")}${part.note}.`, []);
      const counts = uniqueDetectors(check.detectors)
        .map((detector) => ({ detector, count: findings.filter((finding) => finding.detector === detector).length }))
        .filter(({ count }) => count > 0)
        .map(({ detector, count }) => (count === 1 ? `${PII_NAMES[detector].one}` : `${formatCount(count)} ${PII_NAMES[detector].many}`));
      return verdict(true, `The text contains ${listOf(counts, "and")}${part.note}.`, findings);
    }
    case "json_schema":
    case "judge":
    case "custom":
      return null;
  }
}

const PII_NAMES: Readonly<Record<PiiDetector, { one: string; many: string }>> = {
  email: { one: "an email address", many: "email addresses" },
  phone: { one: "a phone number", many: "phone numbers" },
  card: { one: "a card number", many: "card numbers" },
  iban: { one: "an IBAN", many: "IBANs" },
  api_key: { one: "an API key or credential", many: "API keys or credentials" },
};

function uniqueDetectors(detectors: readonly PiiDetector[]): PiiDetector[] {
  return (Object.keys(PII_NAMES) as PiiDetector[]).filter((detector) => detectors.includes(detector));
}

/** Findings of the chosen PII detectors, sorted. Cards and IBANs go first: a phone scan skips digits they cover. */
function findPii(detectors: readonly PiiDetector[], text: string): GuardrailFinding[] {
  const findings = new FindingList(text.length);
  if (detectors.includes("card")) findCards(text, findings);
  if (detectors.includes("iban")) findIbans(text, findings);
  if (detectors.includes("phone")) findPhones(text, findings, findings.items);
  if (detectors.includes("email")) findEmails(text, findings);
  if (detectors.includes("api_key")) findApiKeys(text, findings);
  return findings.items;
}

function verdict(tripped: boolean, reason: string, findings: GuardrailFinding[]): GuardrailVerdict {
  return { tripped, reason, findings: [...findings].sort((a, b) => a.start - b.start || a.end - b.end) };
}

/** ["a", "b", "c"] → "a, b and c". */
function listOf(items: readonly string[], conjunction: "and" | "or"): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}
