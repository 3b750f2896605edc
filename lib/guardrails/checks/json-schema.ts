// The json_schema check: the text (an answer, or a tool call's arguments as
// JSON) must parse as JSON and match the schema. Ajv compiles schemas to code,
// so this runs in a worker activity (and on the server), never in workflow code
// or the browser; patterns in the schema run on RE2 (lib/json-schema).
import { checkValue, parseJsonAnswer } from "../../json-schema/validator";
import type { GuardrailCheck, GuardrailVerdict } from "../schemas";
import { formatCount, MAX_CHECKED_CHARS, plural } from "./text";

type JsonSchemaCheck = Extract<GuardrailCheck, { type: "json_schema" }>;

/** An Ajv sentence without the value it quotes from the text (a field name may itself be the secret). */
function withoutQuotedValue(problem: string): string {
  return problem.replace(/: "[^"]*"$/, "");
}

/** Whether `text` is JSON matching the check's schema; a text too long to parse whole trips (fail closed). */
export function evaluateJsonSchemaCheck(check: JsonSchemaCheck, text: string): GuardrailVerdict {
  if (text.length > MAX_CHECKED_CHARS) {
    return { tripped: true, reason: `The text is ${formatCount(text.length)} characters long, over the ${formatCount(MAX_CHECKED_CHARS)} a schema check reads.`, findings: [] };
  }
  const parsed = parseJsonAnswer(text);
  if (!parsed.ok) return { tripped: true, reason: "The text is not JSON, so it cannot match the schema.", findings: [] };
  const result = checkValue(check.schema, parsed.value, { maxErrors: 20 });
  if (result.ok) return { tripped: false, reason: "The text is JSON matching the schema.", findings: [] };
  const first = result.errors[0] ? withoutQuotedValue(result.errors[0]) : "it is invalid";
  return { tripped: true, reason: `The text does not match the schema (${plural(result.errors.length, "problem", "problems")}; the first: ${first}).`, findings: [] };
}
