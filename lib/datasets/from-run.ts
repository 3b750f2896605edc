// A dataset item from a recorded run tree (pure; the ledger reads are in
// server/from-runs.ts): the root run's task, context and images as input; its
// final answer, tool calls, routing and plan as expectations; every tool result
// of the tree, with the approval decision when the call was gated, as its tape.
import type { RunEvent } from "../contract/types";
import type { ImageRef } from "../attachments/schemas";
import { FAIL_TOOL, HANDOFF_TOOL, MESSAGE_AGENT_TOOL, RETURN_TOOL } from "../contract/system-tools";
import type { RecordedDecision, TapeEntry } from "../tapes/schemas";
import type { DatasetItemExpected, ExpectedCall } from "./schemas";
import type { ItemDraft } from "./import-parse";
import { ValidationError } from "../errors";

/**
 * A run whose history holds a step someone wrote (a fork's edited tool result or model output) is not a
 * recording: an item made from it would hand the invented step to experiments as a recorded success.
 */
export function editedHistoryRefusal(runId: string, edit: { step: string; by: string; at: string }): ValidationError {
  return new ValidationError(
    [{ path: "runId", message: `its ${edit.step} step was edited by ${edit.by} at ${edit.at}` }],
    `Run ${runId} holds an edited step (${edit.step}, edited by ${edit.by} at ${edit.at}), not a recording, so it cannot become a dataset item; add its origin run, or a run that recorded the step`,
  );
}

/** A model output or tool result the engine took from a tape entry someone wrote (its event's `edited` mark). */
export type EditedEvent = Extract<RunEvent, { type: "inference_completed" | "tool_call_completed" }>;

/**
 * How a refusal names an edited step the ledger holds: what was written (a model output or a tool result),
 * where (the model or tool, the iteration, the call), and the run of the tree that holds it when that is not
 * the run asked about, so a person can find the step in the trace.
 */
export function editedEventStep(event: EditedEvent, heldBy: string, asked: string): string {
  const what = event.type === "inference_completed" ? `model output of inference ${event.model}` : `result of tool ${event.tool} (call ${event.callId})`;
  return `${what} at iteration ${event.iteration}${heldBy === asked ? "" : ` in run ${heldBy}`}`;
}

/** `return` and `fail` end a turn: not part of an agent's trajectory (as lib/experiments' observed runs). */
const TURN_TOOLS = new Set([RETURN_TOOL, FAIL_TOOL]);
/** The engine's own tools are never taped: replaying them would skip the sub-agent or the handoff they start. */
const ENGINE_TOOLS = new Set([RETURN_TOOL, FAIL_TOOL, HANDOFF_TOOL, MESSAGE_AGENT_TOOL]);

export interface RecordedRoot {
  id: string;
  task: string;
  /** JSON text of the run context. */
  context: string;
  status: string;
  output: string | null;
  /** The typed answer, parsed (undefined: none). */
  outputData?: unknown;
  planOutcome: string | null;
}

/** A gated call's decision as recorded (approval_records), keyed in `decisions` by `<runId>:<toolCallId>`. */
export interface RecordedApproval {
  status: string;
  reason: string | null;
  editedArguments: Record<string, unknown> | null;
  decidedBy: string | null;
}

export interface RecordedRunTree {
  root: RecordedRoot;
  images: ImageRef[];
  /** Each run of the tree with its events of the types in ITEM_EVENT_TYPES, root first. */
  runs: { runId: string; events: RunEvent[] }[];
  decisions: ReadonlyMap<string, RecordedApproval>;
}

/** The event types an item is made from. */
export const ITEM_EVENT_TYPES: RunEvent["type"][] = ["tool_call_started", "tool_call_completed", "routing_decided", "plan_proposed"];

export function parseJsonObject(text: string | null | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function decisionOf(approval: RecordedApproval | undefined): RecordedDecision | undefined {
  if (!approval || (approval.status !== "approved" && approval.status !== "rejected" && approval.status !== "expired")) return undefined;
  return { approved: approval.status === "approved", reason: approval.reason, editedArguments: approval.editedArguments, decidedBy: approval.decidedBy };
}

/** The item a run tree makes. */
export function itemFromRun(tree: RecordedRunTree): ItemDraft {
  // One timeline for the tree: by the events' times, each run's own order (seq) kept for equal times.
  const timeline = tree.runs
    .flatMap(({ runId, events }) => events.map((event) => ({ runId, event })))
    .sort((a, b) => a.event.at.localeCompare(b.event.at) || (a.runId === b.runId ? a.event.seq - b.event.seq : 0));
  const started = new Map<string, Extract<RunEvent, { type: "tool_call_started" }>>();
  const trajectory: ExpectedCall[] = [];
  const tape: TapeEntry[] = [];
  let routing: DatasetItemExpected["routing"];
  let plan: DatasetItemExpected["plan"];
  for (const { runId, event } of timeline) {
    if (event.type === "tool_call_started") started.set(`${runId}:${event.iteration}:${event.callId}`, event);
    else if (event.type === "tool_call_completed") {
      if (event.edited) throw editedHistoryRefusal(tree.root.id, { step: `tool ${event.tool}`, ...event.edited });
      const args = parseJsonObject(started.get(`${runId}:${event.iteration}:${event.callId}`)?.arguments);
      if (!TURN_TOOLS.has(event.tool)) trajectory.push({ tool: event.tool, arguments: args });
      if (ENGINE_TOOLS.has(event.tool)) continue;
      const approval = decisionOf(tree.decisions.get(`${runId}:${event.callId}`));
      tape.push({ kind: "tool_call", tool: event.tool, arguments: args, outcome: event.outcome, result: event.result, ...(approval ? { approval } : {}) });
    } else if (event.type === "routing_decided" && !routing) routing = { target: event.decision.target, fallback: event.decision.fallbackTaken };
    else if (event.type === "plan_proposed") plan = { cards: [...new Set(event.plan.nodes.map((n) => n.agent))], nodeCount: event.plan.nodes.length };
  }
  const { root } = tree;
  if (plan && root.planOutcome) plan.outcome = root.planOutcome;
  const expected: DatasetItemExpected = {};
  // Only a completed run's answer is worth expecting; a failed run still gives its calls and tape.
  if (root.status === "completed") {
    expected.output = root.output;
    if (root.outputData !== undefined && root.outputData !== null) expected.outputData = root.outputData;
  }
  if (trajectory.length) expected.trajectory = trajectory;
  if (routing) expected.routing = routing;
  if (plan) expected.plan = plan;
  return {
    input: { task: root.task, context: parseJsonObject(root.context), ...(tree.images.length ? { images: tree.images } : {}) },
    expected,
    tape,
    tags: [],
    source: { runId: root.id },
  };
}
