// Scorers on the typed answer: JSON Schema match (the repo's Ajv validator) and one field by dotted path.
import { checkValue, parseJsonAnswer } from "../../json-schema/validator";
import type { ObservedRun, Score, ScoredItem } from "./types";
import { brief, deepEqual, valueAtPath } from "./compare-values";

/** The typed answer: outputData when the agent returned one, else the text answer read as JSON. */
function typedAnswer(run: ObservedRun): { ok: true; value: unknown } | { ok: false; why: string } {
  if (run.outputData !== undefined && run.outputData !== null) return { ok: true, value: run.outputData };
  if (run.output === null) return { ok: false, why: run.errorReason ? `the run gave no answer (${run.status}: ${run.errorReason})` : `the run gave no answer (${run.status})` };
  const parsed = parseJsonAnswer(run.output);
  return parsed.ok ? { ok: true, value: parsed.value } : { ok: false, why: `the answer is not JSON: ${parsed.error}` };
}

export function scoreJsonSchema(run: ObservedRun, schema: Record<string, unknown>): Score {
  const scorer = "json_schema";
  const answer = typedAnswer(run);
  if (!answer.ok) return { scorer, value: 0, pass: false, detail: answer.why };
  const check = checkValue(schema, answer.value, { maxErrors: 3 });
  if (check.ok) return { scorer, value: 1, pass: true, detail: "the answer matches the schema" };
  return { scorer, value: 0, pass: false, detail: `the answer does not match the schema: ${check.errors.join("; ")}` };
}

export function scoreJsonField(run: ObservedRun, item: ScoredItem, config: { path: string; equals?: unknown; hasEquals: boolean }): Score {
  const scorer = `json_field:${config.path}`;
  let expected: unknown;
  if (config.hasEquals) {
    expected = config.equals;
  } else {
    const fromItem = valueAtPath(item.expected.outputData, config.path);
    if (!fromItem.found) return { scorer, value: 0, pass: null, detail: `nothing to compare: no "equals" configured and the item's expected answer has no ${config.path}` };
    expected = fromItem.value;
  }
  const answer = typedAnswer(run);
  if (!answer.ok) return { scorer, value: 0, pass: false, detail: answer.why };
  const actual = valueAtPath(answer.value, config.path);
  if (!actual.found) return { scorer, value: 0, pass: false, detail: `the answer has no ${config.path}` };
  const equal = deepEqual(actual.value, expected);
  return { scorer, value: equal ? 1 : 0, pass: equal, detail: equal ? `${config.path} = ${brief(expected)}` : `${config.path}: expected ${brief(expected)}, got ${brief(actual.value)}` };
}
