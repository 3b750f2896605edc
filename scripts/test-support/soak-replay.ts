// After the replay soak: every execution of every workflow the soak started
// (found by its task queue, so children, plan nodes, sub-agent conversations,
// continued-as-new and follow-up executions, experiments and playground calls
// all count), open or closed, fetched and replayed on today's workflow bundle
// as a worker that lost its cache would. Nondeterminism is named per execution
// with the first event that did not match; the live workers' own failed
// workflow tasks for nondeterminism are named too (a worker that replayed after
// the SIGKILL or an eviction already saw it).
import { Worker, type ReplayResult } from "@temporalio/worker";
import { temporal } from "@temporalio/proto";
import type { Client } from "@temporalio/client";
import type { History } from "@temporalio/common/lib/proto-utils";
import { createClaimCheckCodec } from "../../lib/temporal/claim-check-codec";
import { eventually, sharedWorkflowBundle, type EngineHarness } from "./engine-harness";
import type { Started } from "./soak-kinds";

const EventType = temporal.api.enums.v1.EventType;
const NONDETERMINISTIC = temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR;

export interface SoakExecution {
  workflowId: string;
  runId: string;
  type: string;
  status: string;
}

/** Every execution on the soak's task queue; waits until each of `mustInclude` (workflow ids the soak started) is listed (visibility lags behind). */
export async function listSoakExecutions(client: Client, taskQueue: string, mustInclude: readonly string[]): Promise<SoakExecution[]> {
  const list = async () => {
    const found: SoakExecution[] = [];
    for await (const e of client.workflow.list({ query: `TaskQueue = '${taskQueue}'` })) found.push({ workflowId: e.workflowId, runId: e.runId, type: e.type, status: e.status.name });
    return found;
  };
  return eventually(
    list,
    (found) => {
      const ids = new Set(found.map((e) => e.workflowId));
      return mustInclude.every((id) => ids.has(id));
    },
    30_000,
    "visibility to list every workflow the soak started",
  );
}

export interface SoakReplayReport {
  replayed: number;
  open: number;
  /** "<workflowId>/<runId>: <what did not match>", one per execution that failed. */
  failures: string[];
  /** Executions whose history shows a workflow task that timed out (a worker lost, or a task held too long). */
  timedOutTasks: number;
  /** Event counts, to print: how much history the soak made. */
  events: number;
}

/**
 * Core's own sentence (`[TMPRL1100] Nondeterminism error: …`) out of the SDK's wrapping, and the event it names
 * ("HistoryEvent(id: 38, …)") with its type from the history: the first event that did not match.
 */
function firstMismatch(message: string, history: History): string {
  const flat = message.replace(/\s+/g, " ");
  const core = /\[TMPRL\d+\][^"]*/.exec(flat)?.[0] ?? flat;
  const id = /HistoryEvent\(id: (\d+)/.exec(core)?.[1];
  const event = id ? history.events?.find((e) => Number(e.eventId) === Number(id)) : undefined;
  const named = event?.eventType != null ? ` (first mismatching event: ${id}, ${EventType[event.eventType]})` : "";
  return `${core.slice(0, 500)}${named}`;
}

/** Workflow tasks the live workers failed for nondeterminism, as "event N: message". */
function liveNondeterminism(history: History): string[] {
  return (history.events ?? [])
    .filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED && e.workflowTaskFailedEventAttributes?.cause === NONDETERMINISTIC)
    .map((e) => `event ${String(e.eventId)}: ${firstMismatch(e.workflowTaskFailedEventAttributes?.failure?.message ?? "", history)}`);
}

/** Fetches at most `concurrency` histories at once (hundreds of executions; one at a time wastes the wall clock, all at once floods the server). */
async function fetchAll(client: Client, executions: readonly SoakExecution[], concurrency = 8): Promise<History[]> {
  const histories: History[] = new Array<History>(executions.length);
  let next = 0;
  const lane = async () => {
    while (next < executions.length) {
      const i = next++;
      const e = executions[i] as SoakExecution;
      histories[i] = await client.workflow.getHandle(e.workflowId, e.runId).fetchHistory();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return histories;
}

/**
 * What each execution is, for the failure lines: the kind the driver started it as, or — for the executions it did
 * not start itself (sub-agent conversations, routed children, plan nodes, experiment units) — what it belongs to.
 */
export async function soakLabels(h: EngineHarness, started: readonly Started[]): Promise<(e: SoakExecution) => string> {
  const kindOf = new Map(started.flatMap((s) => (s.workflowId ? [[s.workflowId, `${s.kind} on ${s.model}`] as const] : [])));
  const rows = new Map((await h.db.run.findMany({ select: { id: true, rootRunId: true, experimentId: true } })).map((r) => [r.id, r]));
  return (e) => {
    const direct = kindOf.get(e.workflowId);
    if (direct) return direct;
    const row = rows.get(e.workflowId);
    if (!row) return e.type;
    const root = kindOf.get(row.rootRunId);
    if (root) return `child of ${root}`;
    return row.experimentId ? "experiment unit" : e.type;
  };
}

export async function replaySoak(h: EngineHarness, executions: readonly SoakExecution[], labelOf: (e: SoakExecution) => string = (e) => e.type): Promise<SoakReplayReport> {
  const histories = await fetchAll(h.client, executions);
  const failures: string[] = [];
  let timedOutTasks = 0;
  let events = 0;
  histories.forEach((history, i) => {
    const e = executions[i] as SoakExecution;
    events += history.events?.length ?? 0;
    if (history.events?.some((ev) => ev.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT)) timedOutTasks++;
    const live = liveNondeterminism(history);
    if (live.length) failures.push(`${e.workflowId}/${e.runId}: live worker: ${live.length} workflow task(s) failed for nondeterminism, the first at ${live[0]} [${labelOf(e)}]`);
  });
  const dataConverter = { payloadCodecs: [createClaimCheckCodec({ db: h.db, thresholdBytes: h.config.temporal.payloadOffloadBytes })] };
  // Two replay workers, each with its own workflow thread, over alternate executions: replaying is CPU in the
  // workflow thread, one history at a time per worker, and the soak's file runs alone, so one worker left a core
  // idle for the ~40 s the replay takes. Each worker answers in the order it was given.
  const lanes = [0, 1].map((lane) => executions.flatMap((_, i) => (i % 2 === lane ? [i] : [])));
  const answered = await Promise.all(
    lanes.map(async (indexes) => {
      const results: { index: number; result: ReplayResult }[] = [];
      let k = 0;
      const inputs = indexes.map((i) => ({ workflowId: (executions[i] as SoakExecution).workflowId, history: histories[i] as History }));
      for await (const result of Worker.runReplayHistories({ workflowBundle: sharedWorkflowBundle(), dataConverter }, inputs)) results.push({ index: indexes[k++] as number, result });
      return results;
    }),
  );
  const results = answered.flat().sort((a, b) => a.index - b.index);
  for (const { index, result } of results) {
    const e = executions[index] as SoakExecution;
    if (result.error) failures.push(`${e.workflowId}/${e.runId}: replay: ${firstMismatch(result.error.message, histories[index] as History)} [${labelOf(e)}]`);
  }
  if (results.length !== executions.length) failures.push(`the replayer answered for ${results.length} of ${executions.length} executions`);
  return { replayed: results.length, open: executions.filter((e) => e.status === "RUNNING").length, failures, timedOutTasks, events };
}
