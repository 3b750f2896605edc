// What a finished run did, as the scorers see it (ObservedRun, scoring
// contract), read from the run ledger: the whole tree's tool calls in order with
// their arguments, the routers' decisions, the plan, usage, cost and latency.
// No `server-only`: the worker's experiment activity scores runs with it.
import type { Db } from "../../db/prisma";
import type { RunEvent } from "../../contract/types";
import { parseOutputData, readEventsOfTypes, readModelTokens, readRunRow, readRunTree } from "../../run-ledger/read";
import { costAt, EMPTY_PRICE_BOOK, periodTime, priceChangeTimes, type PriceBook } from "../../pricing/price-book";
import type { ObservedRun } from "../scoring/types";
import { editedEventStep } from "../../datasets/from-run";

/** The engine's own tools end a turn; they are not part of an agent's trajectory. */
const SYSTEM_TOOLS = new Set(["return", "fail"]);
const OBSERVED_EVENTS: RunEvent["type"][] = ["inference_completed", "tool_call_started", "tool_call_completed", "routing_decided", "plan_proposed", "plan_node_started", "plan_finished"];
/** A run tree's events read for scoring, at most (a longer run is scored on its first ones). */
const MAX_EVENTS_PER_RUN = 20_000;

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * A finished tool call as the scorers see it. `replayed`: its result came from a recording on the
 * tape; `edited`: it came from the tape but someone wrote it (a fork's edit, or an imported item
 * tape entry marked edited), so it is never `replayed`: a metric over recorded steps leaves it out.
 */
export function observedToolCall(started: Extract<RunEvent, { type: "tool_call_started" }> | undefined, completed: Extract<RunEvent, { type: "tool_call_completed" }>): ObservedRun["toolCalls"][number] {
  const edited = completed.edited !== undefined;
  return { tool: completed.tool, arguments: parseArguments(started?.arguments ?? "{}"), outcome: completed.outcome, replayed: completed.replayed === true && !edited, edited };
}

export class ObservedRunNotFound extends Error {
  constructor(readonly runId: string) {
    super(`There is no run ${runId}`);
    this.name = "ObservedRunNotFound";
  }
}

/** Observes a run and its sub-runs from the ledger; `prices` turns tokens into dollars at the price in effect when each call ran (demo models free unless priced). */
export async function observeRun(db: Db, runId: string, prices: PriceBook = EMPTY_PRICE_BOOK): Promise<ObservedRun> {
  const root = await readRunRow(db, runId);
  if (!root) throw new ObservedRunNotFound(runId);
  const tree = await readRunTree(db, root.rootRunId);
  const runIds = [root.id, ...tree.map((r) => r.id).filter((id) => id !== root.id)];
  const perRun = await Promise.all(runIds.map(async (id) => ({ id, events: await readEventsOfTypes(db, id, OBSERVED_EVENTS, { take: MAX_EVENTS_PER_RUN }) })));
  // One timeline for the tree: by the events' times, each run's own order (seq) kept for equal times.
  const timeline = perRun
    .flatMap(({ id, events }) => events.map((event) => ({ id, event })))
    .sort((a, b) => a.event.at.localeCompare(b.event.at) || (a.id === b.id ? a.event.seq - b.event.seq : 0));

  const started = new Map<string, Extract<RunEvent, { type: "tool_call_started" }>>();
  const toolCalls: ObservedRun["toolCalls"] = [];
  const editedSteps: string[] = [];
  const routing: ObservedRun["routing"] = [];
  let plan = null as ObservedRun["plan"];
  let planStarted = false;
  for (const { id, event } of timeline) {
    if ((event.type === "inference_completed" || event.type === "tool_call_completed") && event.edited) {
      editedSteps.push(`${editedEventStep(event, id, root.id)} (edited by ${event.edited.by} at ${event.edited.at})`);
    }
    switch (event.type) {
      case "tool_call_started":
        started.set(`${id}:${event.iteration}:${event.callId}`, event);
        break;
      case "tool_call_completed": {
        if (SYSTEM_TOOLS.has(event.tool)) break;
        toolCalls.push(observedToolCall(started.get(`${id}:${event.iteration}:${event.callId}`), event));
        break;
      }
      case "routing_decided":
        routing.push({ target: event.decision.target, fallback: event.decision.fallbackTaken });
        break;
      case "plan_proposed":
        plan = { valid: false, cards: [...new Set(event.plan.nodes.map((n) => n.agent))], nodeCount: event.plan.nodes.length, outcome: null };
        break;
      case "plan_node_started":
        planStarted = true;
        break;
      case "plan_finished":
        if (plan) plan = { ...plan, outcome: event.outcome };
        break;
      default:
        break;
    }
  }
  // A plan is valid when the executor accepted it: it started a node or finished the plan.
  if (plan) plan = { ...plan, valid: planStarted || plan.outcome !== null };

  // Each call at its model's price when it ran.
  const changes = priceChangeTimes(prices);
  const tokens = await readModelTokens(db, runIds, changes);
  let cost = 0;
  for (const t of tokens) cost += costAt(prices, t.model, t, periodTime(changes, t.period)) ?? 0;
  const endedAt = root.endedAt ?? root.updatedAt;
  return {
    runId: root.id,
    status: root.status,
    output: root.output,
    outputData: root.outputData === null ? null : parseOutputData(root.outputData),
    errorReason: root.errorReason,
    toolCalls,
    editedSteps,
    routing,
    plan,
    latencyMs: Math.max(0, endedAt.getTime() - root.startedAt.getTime()),
    inputTokens: tokens.reduce((sum, t) => sum + t.inputTokens, 0),
    outputTokens: tokens.reduce((sum, t) => sum + t.outputTokens, 0),
    costUsd: cost,
  };
}
