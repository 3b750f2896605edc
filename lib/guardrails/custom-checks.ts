// Custom guardrail checks an agent may name (check.type "custom"): built-in
// functions the worker registers (worker/activities/guardrail-custom.ts), never
// user code. The designer offers these names and the validator refuses others;
// a name the worker does not know trips at run time (fail closed).

export interface CustomCheckInfo {
  name: string;
  /** One sentence the designer shows beside the name. */
  description: string;
}

export const CUSTOM_CHECKS: readonly CustomCheckInfo[] = [
  { name: "prompt_injection", description: "Trips on phrases that try to override the agent's instructions (\"ignore previous instructions\", \"reveal your system prompt\")." },
  { name: "control_characters", description: "Trips on control characters other than tabs and line breaks (hidden instructions, terminal escapes)." },
];

export const CUSTOM_CHECK_NAMES: readonly string[] = CUSTOM_CHECKS.map((check) => check.name);

export function isRegisteredCustomCheck(name: string): boolean {
  return CUSTOM_CHECK_NAMES.includes(name);
}
