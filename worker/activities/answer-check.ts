// Checks a model's final answer against the agent's answer schema: a `return`
// call's arguments, or — when the model answered in text, as providers with
// structured output do — the text parsed as JSON. Runs in the inference
// activity because JSON Schema validation (Ajv) cannot run in workflow code.
import { RETURN_TOOL } from "../../lib/contract/system-tools";
import { checkValue, parseJsonAnswer } from "../../lib/json-schema/validator";
import type { InferenceResponse } from "../models/types";

export interface AnswerSchema {
  schema: Record<string, unknown>;
  strict: boolean;
}

/** Raw answers kept for the repair prompt and the failure's details: enough to see what went wrong. */
const RAW_KEPT = 4000;

export type AnswerCheck =
  | { source: "return" | "content"; ok: true; data: unknown; raw: string; callId?: string }
  | { source: "return" | "content"; ok: false; errors: string[]; raw: string; callId?: string };

function clip(text: string): string {
  return text.length > RAW_KEPT ? `${text.slice(0, RAW_KEPT)}…` : text;
}

/** The checked answer, or undefined when the response is not a final answer (it calls other tools). */
export function checkAnswer(answer: AnswerSchema, response: Pick<InferenceResponse, "content" | "toolCalls">): AnswerCheck | undefined {
  const returned = response.toolCalls.find((call) => call.name === RETURN_TOOL);
  let source: "return" | "content";
  let raw: string;
  if (returned) {
    source = "return";
    raw = returned.arguments;
  } else if (response.toolCalls.length === 0) {
    source = "content";
    raw = response.content ?? "";
  } else {
    return undefined;
  }
  const callId = returned?.id;
  const parsed = parseJsonAnswer(raw);
  if (!parsed.ok) return { source, ok: false, errors: [parsed.error], raw: clip(raw), ...(callId ? { callId } : {}) };
  const checked = checkValue(answer.schema, parsed.value, { strict: answer.strict });
  return checked.ok
    ? { source, ok: true, data: parsed.value, raw: clip(raw), ...(callId ? { callId } : {}) }
    : { source, ok: false, errors: checked.errors, raw: clip(raw), ...(callId ? { callId } : {}) };
}
