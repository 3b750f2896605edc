// What a run stream (GET /api/runs/:runId/stream) sends, for its readers: the
// browser's run page and the TypeScript client. Browser-safe.
import type { RunEvent } from "../contract/types";
import type { StreamEnd } from "./stream-end";

/** Every ledger event type: an EventSource hears named events only through a listener per name. */
export const RUN_EVENT_TYPES = [
  "run_started",
  "user_message",
  "turn_interrupted",
  "iteration_started",
  "inference_started",
  "inference_completed",
  "tool_call_started",
  "tool_call_completed",
  "approval_requested",
  "approval_decided",
  "approval_endorsed",
  "sub_agent_message",
  "sub_agent_reply",
  "budget_warning",
  "error",
  "continued_as_new",
  "output_invalid",
  "routing_decided",
  "routed_agent_failed",
  "handoff",
  "budget_extension_requested",
  "budget_extended",
  "plan_proposed",
  "plan_node_started",
  "plan_node_finished",
  "plan_finished",
  "guardrail_checked",
  "run_completed",
  "run_failed",
  "run_cancelled",
] as const satisfies readonly RunEvent["type"][];

// A type missing from the list fails to compile here.
type Missing = Exclude<RunEvent["type"], (typeof RUN_EVENT_TYPES)[number]>;
const everyTypeListed: [Missing] extends [never] ? true : Missing = true;
void everyTypeListed;

/** A ledger event as the stream sends it: the event and a sentence saying it. */
export type StreamedRunEvent = RunEvent & { phrase: string };

/** A piece of a model call's text as it is generated: placed at `offset` (0: the text starts again). */
export interface TokenFrame {
  type: "token";
  runId: string;
  iteration: number;
  attempt: number;
  agentName: string;
  offset: number;
  delta: string;
  /** The call returned; its message reaches the ledger with the run's next write. */
  done: boolean;
}

/** The last frame: the run is final and every event was sent, or the caller's access ended (lib/runs/stream-end.ts). */
export type EndFrame = { type: "end" } & StreamEnd;

export type RunStreamItem = StreamedRunEvent | TokenFrame | EndFrame;

/** A model call's text so far, as a reader puts it together from token frames. */
export interface LiveCall {
  runId: string;
  iteration: number;
  attempt: number;
  agentName: string;
  text: string;
  done: boolean;
}

/** Applies a token frame to what the reader holds of that call. */
export function applyToken(current: LiveCall | null, frame: TokenFrame): LiveCall {
  const same = current && current.iteration === frame.iteration && current.attempt === frame.attempt && current.runId === frame.runId;
  const base = same && frame.offset <= current.text.length ? current.text.slice(0, frame.offset) : "";
  return { runId: frame.runId, iteration: frame.iteration, attempt: frame.attempt, agentName: frame.agentName, text: base + frame.delta, done: frame.done };
}
