// Custom guardrail checks: built-in functions an admin may name in a guardrail
// (check: "<name>"). Never user code on the server: a name is looked up here, and
// a name nobody registered trips (fail closed) rather than letting the text through.
import type { GuardrailVerdict } from "../../lib/guardrails/schemas";

type CustomCheck = (text: string) => GuardrailVerdict;

/** Phrases that try to override an agent's instructions (a heuristic, case-insensitive, linear-time). */
const INJECTION_PHRASES = [
  "ignore previous instructions",
  "ignore all previous instructions",
  "ignore the above",
  "disregard previous instructions",
  "disregard your instructions",
  "forget your instructions",
  "you are now",
  "reveal your system prompt",
  "print your system prompt",
  "act as dan",
];

function promptInjection(text: string): GuardrailVerdict {
  const lower = text.toLowerCase().replace(/\s+/g, " ");
  const found = INJECTION_PHRASES.filter((phrase) => lower.includes(phrase)).length;
  // Whole-text verdict (not maskable): the phrases were matched on a normalised copy, whose offsets are not the text's.
  return found
    ? { tripped: true, reason: `the text holds ${found} phrase(s) that try to override the agent's instructions`, findings: [] }
    : { tripped: false, reason: "no instruction-override phrase found", findings: [] };
}

/** Trips on control characters other than tab and line breaks (hidden instructions, terminal escapes). */
function controlCharacters(text: string): GuardrailVerdict {
  const count = (text.match(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g) ?? []).length;
  return count ? { tripped: true, reason: `the text holds ${count} control character(s)`, findings: [] } : { tripped: false, reason: "no control characters", findings: [] };
}

export const CUSTOM_CHECK_FUNCTIONS: Readonly<Record<string, CustomCheck>> = {
  prompt_injection: promptInjection,
  control_characters: controlCharacters,
};

export function runCustomCheck(name: string, text: string): Promise<GuardrailVerdict> {
  const check = Object.hasOwn(CUSTOM_CHECK_FUNCTIONS, name) ? CUSTOM_CHECK_FUNCTIONS[name] : undefined;
  if (!check) return Promise.resolve({ tripped: true, reason: `no custom check named "${name}" is registered on the worker`, findings: [] });
  return Promise.resolve(check(text));
}
