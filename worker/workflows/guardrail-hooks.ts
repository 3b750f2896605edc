// Where the run meets its agent's guardrails (guardrails.ts): the task at the
// start and each follow-up (input), the final answer before it is recorded
// (output), each tool call's arguments before its gate and its run (tool_call),
// and its result before the model sees it (tool_result). Every hook returns at
// once, with no command, when the agent has no guardrail of its kind.
import { CancellationScope, isCancellation } from "@temporalio/workflow";
import type { AgentConfig } from "../../lib/agents/schemas";
import type { ToolCall } from "../../lib/contract/types";
import type { AgentRunInput } from "../../lib/contract/workflow";
import type { Guardrail } from "../../lib/guardrails/schemas";
import type { InferenceOutput } from "../activities/agent";
import { applyMasks, guardrailsOf, screen, type ScreenContext } from "./guardrails";
import { RunFailure } from "./run-failure";
import type { RunState } from "./run-state";

/** What the run's records hold instead of a task an input guardrail blocked: the task itself is never stored by the engine. */
export function withheldTask(error: RunFailure): string {
  return `[withheld: ${error.message.split(":")[0] ?? "a guardrail tripped"}]`;
}

/** The turn a parallel input check runs beside: its first model call waits for the check (turn-context, agent-loop.ts). */
export interface BesideFirstCall {
  checkBesideFirstCall(check: Promise<unknown>): void;
}

/**
 * Screens an input text: the guardrails that must see it first run now (every `mask`, and those without
 * `parallel`), the `parallel` ones (block or log) beside the turn's first model call, which they cancel
 * when they trip (fail fast).
 */
async function screenInput(guardrails: readonly Guardrail[], text: string, context: ScreenContext, turn: BesideFirstCall): Promise<string> {
  const beside = guardrails.filter((g) => g.parallel && g.action !== "mask");
  const before = guardrails.filter((g) => !beside.includes(g));
  const screened = before.length ? (await screen(before, text, context)).text : text;
  if (beside.length) turn.checkBesideFirstCall(screen(beside, screened, context));
  return screened;
}

/**
 * Runs a model call beside a parallel input check: a trip cancels the call and
 * fails the turn, and the call's answer is used only once the check passed (a
 * cancelled call's result is never used or recorded as an answer).
 */
export async function besideCheck<T>(check: Promise<unknown>, call: () => Promise<T>): Promise<T> {
  const scope = new CancellationScope();
  let tripped: unknown = null;
  void check.then(
    () => undefined,
    (error: unknown) => {
      tripped = error;
      scope.cancel();
    },
  );
  let result: T;
  try {
    result = await scope.run(call);
  } catch (error) {
    if (tripped !== null && isCancellation(error)) throw tripped;
    throw error;
  }
  await check;
  return result;
}

function contextOf(state: RunState, input: AgentRunInput, agent: AgentConfig, parentSpanId: string | null, task: string): ScreenContext {
  return { state, limits: input.graph.limits, agentModel: agent.model, task, parentSpanId };
}

/**
 * The run's task through the agent's input guardrails, before run_started records it: the masked task, or
 * (blocked) run_started with the task withheld and guardrail_tripped thrown. `identity.task` (the row a
 * child run's first write creates) follows.
 */
export async function screenTask(state: RunState, loop: { agent: AgentConfig } & BesideFirstCall, input: AgentRunInput, runSpanId: string, identity: { task: string }): Promise<string> {
  const guardrails = guardrailsOf(loop.agent, "input", state.patches);
  if (guardrails.length === 0) return input.message;
  try {
    const text = await screenInput(guardrails, input.message, contextOf(state, input, loop.agent, runSpanId, input.message), loop);
    if (text !== input.message) {
      state.maskedTask = text;
      identity.task = text;
    }
    return text;
  } catch (error) {
    if (error instanceof RunFailure && error.reason === "guardrail_tripped") {
      const withheld = withheldTask(error);
      state.maskedTask = withheld;
      identity.task = withheld;
      state.emit({ type: "run_started", agentName: input.agentName, task: withheld, depth: input.depth });
    }
    throw error;
  }
}

/** A follow-up through the speaking agent's input guardrails, before the turn records it. */
export async function screenMessage(state: RunState, loop: { agent: AgentConfig; input: AgentRunInput } & BesideFirstCall, content: string): Promise<string> {
  const guardrails = guardrailsOf(loop.agent, "input", state.patches);
  if (guardrails.length === 0) return content;
  return screenInput(guardrails, content, contextOf(state, loop.input, loop.agent, state.runSpanId || null, content), loop);
}

/** An answer the output guardrails let through (masked, perhaps), or the rewrite they ask for. */
export type AnswerScreening = { outcome: "pass"; text: string; masks: Guardrail[] } | { outcome: "rewrite"; guardrail: Guardrail; reason: string };

/**
 * The final answer through the agent's output guardrails. A `rewrite` past the
 * guardrail's maxRewrites in this turn blocks; null when the agent has none.
 */
export async function screenAnswer(state: RunState, input: AgentRunInput, agent: AgentConfig, text: string, parentSpanId: string): Promise<AnswerScreening | null> {
  const guardrails = guardrailsOf(agent, "output", state.patches);
  if (guardrails.length === 0) return null;
  const screened = await screen(guardrails, text, contextOf(state, input, agent, parentSpanId, state.turnTask || input.message));
  if (screened.outcome !== "rewrite") return { outcome: "pass", text: screened.text, masks: screened.masks };
  if (state.guardrailRewrites >= screened.guardrail.maxRewrites) {
    throw new RunFailure("guardrail_tripped", `guardrail "${screened.guardrail.name}" (output, ${screened.guardrail.check.type}) tripped after ${state.guardrailRewrites} rewrite(s): ${screened.reason}`, {
      guardrail: { name: screened.guardrail.name, kind: "output", check: screened.guardrail.check.type },
    });
  }
  state.guardrailRewrites++;
  return { outcome: "rewrite", guardrail: screened.guardrail, reason: screened.reason };
}

/**
 * A typed answer's response with the masks applied to every form that carries it (the text, the `return`
 * call's arguments, the checked data), so the conversation and the typed output hold only the masked answer.
 * Null when the masked data is no longer JSON (the caller blocks).
 */
export function maskTypedResponse(response: InferenceOutput, masks: readonly Guardrail[]): InferenceOutput | null {
  const answer = response.answer;
  if (!answer?.ok) return response;
  let data: unknown;
  try {
    data = JSON.parse(applyMasks(masks, JSON.stringify(answer.data)));
  } catch {
    return null;
  }
  return {
    ...response,
    content: response.content === null ? null : applyMasks(masks, response.content),
    toolCalls: response.toolCalls.map((call) => ({ ...call, arguments: applyMasks(masks, call.arguments) })),
    answer: { ...answer, data, raw: applyMasks(masks, answer.raw) },
  };
}

/** The guardrail that sent a call to the inbox, as its approval names it: never the text it found (a verdict's reason quotes none). */
export interface GuardrailHold {
  name: string;
  check: string;
  reason: string;
}

/**
 * The calls of one response through their tool_call guardrails, before the
 * response is recorded: arguments masked in place, and the calls an `inbox`
 * guardrail sends to an approver (by call id, with the guardrail).
 */
export async function screenCalls(state: RunState, input: AgentRunInput, agent: AgentConfig, calls: ToolCall[], parentSpanId: string): Promise<{ calls: ToolCall[]; inbox: Map<string, GuardrailHold> }> {
  const inbox = new Map<string, GuardrailHold>();
  const screened: ToolCall[] = [];
  for (const call of calls) {
    const guardrails = guardrailsOf(agent, "tool_call", state.patches, call.function.name);
    if (guardrails.length === 0) {
      screened.push(call);
      continue;
    }
    const context = { ...contextOf(state, input, agent, parentSpanId, state.turnTask || input.message), tool: { name: call.function.name, callId: call.id } };
    const result = await screen(guardrails, call.function.arguments, context);
    if (result.outcome === "inbox") inbox.set(call.id, { name: result.guardrail.name, check: result.guardrail.check.type, reason: result.reason });
    screened.push(result.text === call.function.arguments ? call : { ...call, function: { ...call.function, arguments: result.text } });
  }
  return { calls: screened, inbox };
}

/** A call's result through its tool_result guardrails, before the model (and the ledger) sees it; null when it has none. */
export async function screenResult(state: RunState, input: AgentRunInput, agent: AgentConfig, call: ToolCall, content: string, parentSpanId: string): Promise<string | null> {
  const guardrails = guardrailsOf(agent, "tool_result", state.patches, call.function.name);
  if (guardrails.length === 0) return null;
  const context = { ...contextOf(state, input, agent, parentSpanId, state.turnTask || input.message), tool: { name: call.function.name, callId: call.id } };
  const { text } = await screen(guardrails, content, context);
  return text;
}
