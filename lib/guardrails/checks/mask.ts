// Masking: the text with each finding's span replaced by a placeholder that
// says what was there ("[redacted card]"), never any of it.
import type { GuardrailFinding } from "../schemas";

const PLACEHOLDER_NAMES: Readonly<Record<string, string>> = {
  email: "email",
  phone: "phone",
  card: "card",
  iban: "iban",
  api_key: "api key",
};

/** "[redacted card]" for a PII detector, "[redacted]" for anything else (a regex or deny-list match). */
export function placeholderFor(detector: string | null): string {
  const name = detector === null ? undefined : PLACEHOLDER_NAMES[detector];
  return name ? `[redacted ${name}]` : "[redacted]";
}

/**
 * The text with every finding's span replaced by its placeholder. Spans are clamped to the text,
 * empty ones ignored; overlapping or touching spans are merged into one (named by their detector
 * when they share one, else "[redacted]"), so the result is the same whatever order they come in.
 */
export function maskFindings(text: string, findings: GuardrailFinding[]): string {
  const spans = findings
    .map((finding) => ({ detector: finding.detector, start: Math.max(0, Math.min(text.length, Math.floor(finding.start))), end: Math.max(0, Math.min(text.length, Math.floor(finding.end))) }))
    .filter((span) => span.end > span.start)
    .sort((a, b) => a.start - b.start || a.end - b.end || (a.detector < b.detector ? -1 : a.detector > b.detector ? 1 : 0));
  const merged: { detector: string | null; start: number; end: number }[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) {
      last.end = Math.max(last.end, span.end);
      if (last.detector !== span.detector) last.detector = null;
    } else merged.push({ ...span });
  }
  let masked = "";
  let at = 0;
  for (const span of merged) {
    masked += text.slice(at, span.start) + placeholderFor(span.detector);
    at = span.end;
  }
  return masked + text.slice(at);
}
