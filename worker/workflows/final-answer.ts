// An agent's final answer when it has an answer schema (seed §3, DD-9): the
// inference activity checked it (a `return` call, or JSON text); here the
// workflow accepts it, asks for a repair — each repair an iteration that counts
// against the step and token budgets — or, after MAX_REPAIRS, fails the run
// with validation_error. `fail` ends the run as a soft failure (DD-4: the
// agent's decision, so no retry is spent on it).
import type { AnswerCheck } from "../activities/answer-check";
import type { ModelToolCall } from "../models/types";
import { FAIL_TOOL, MAX_REPAIRS, repairPrompt } from "../../lib/contract/system-tools";
import type { ToolCall } from "../../lib/contract/types";
import { RunFailure } from "./run-failure";
import type { RunState } from "./run-state";

/** How a turn ended: an answer (typed when the agent has a schema), or a handoff to another agent. */
export type TurnResult = { kind: "answer"; text: string; data?: unknown } | { kind: "handoff"; to: string; reason: string };

/** Errors kept on a validation failure (the full list is in the output_invalid events). */
const ERRORS_KEPT = 20;

function asToolCalls(calls: ModelToolCall[]): ToolCall[] {
  return calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
}

/**
 * Records the model's final message and the result of each call in it (a
 * provider expects every call answered), then accepts the answer or asks for
 * a repair; null means: iterate again.
 */
export function judgeAnswer(
  state: RunState,
  response: { content: string | null; toolCalls: ModelToolCall[] },
  checked: AnswerCheck,
  schema: Record<string, unknown>,
  /** Checks beyond the JSON Schema (a plan's dependencies and cycles); a planner's failures are plan_invalid. */
  beyondSchema?: (data: unknown) => string[],
): TurnResult | null {
  const problems = checked.ok && beyondSchema ? beyondSchema(checked.data) : [];
  const check: AnswerCheck = problems.length > 0 ? { source: checked.source, ok: false, errors: problems, raw: checked.raw, ...(checked.callId ? { callId: checked.callId } : {}) } : checked;
  if (beyondSchema) state.planAttempts++;
  const calls = asToolCalls(response.toolCalls);
  state.pushMessage({ role: "assistant", content: response.content, ...(calls.length ? { tool_calls: calls } : {}) });
  for (const call of calls) {
    const content =
      call.id === check.callId ? (check.ok ? "Accepted." : `Not accepted: ${check.errors.join("; ")}`) : "Not run: the agent gave its final answer in the same response.";
    state.pushMessage({ role: "tool", tool_call_id: call.id, name: call.function.name, content });
  }
  if (check.ok) {
    state.repairsThisTurn = 0;
    return { kind: "answer", text: JSON.stringify(check.data, null, 2), data: check.data };
  }
  const attempt = ++state.repairsThisTurn;
  const repairing = attempt <= MAX_REPAIRS;
  state.emit({ type: "output_invalid", iteration: state.iteration, attempt, errors: check.errors.slice(0, ERRORS_KEPT), repairing });
  if (!repairing) {
    throw new RunFailure(beyondSchema ? "plan_invalid" : "validation_error", `${beyondSchema ? "the plan was still invalid" : "the answer did not match its schema"} after ${MAX_REPAIRS} repairs: ${check.errors.slice(0, 3).join("; ")}`, {
      errors: check.errors.slice(0, ERRORS_KEPT),
      rawOutput: check.raw,
    });
  }
  state.pushMessage({ role: "user", content: repairPrompt(check.errors, check.raw, schema) });
  return null;
}

/** The reason of a `fail` call, or null when the response has none. */
export function failReason(toolCalls: ModelToolCall[]): string | null {
  const call = toolCalls.find((c) => c.name === FAIL_TOOL);
  if (!call) return null;
  try {
    const args = JSON.parse(call.arguments) as { reason?: unknown };
    return typeof args.reason === "string" && args.reason.trim() ? args.reason.trim().slice(0, 500) : "no reason given";
  } catch {
    return "no reason given";
  }
}

/** Answers each call of a response that ended the turn another way (fail, handoff), so the conversation stays well-formed. */
export function closeCalls(state: RunState, response: { content: string | null; toolCalls: ModelToolCall[] }, resultOf: (call: ModelToolCall) => string): void {
  state.pushMessage({ role: "assistant", content: response.content, tool_calls: asToolCalls(response.toolCalls) });
  for (const call of response.toolCalls) state.pushMessage({ role: "tool", tool_call_id: call.id, name: call.name, content: resultOf(call) });
}
