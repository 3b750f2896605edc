// What the rollups gain from one ledger transaction: every event it inserted
// becomes increments of a few (series, label, dimensions) keys, summed in memory
// per bucket at each resolution, so the writer sends one row per distinct key.
// Pure: the writer (lib/metrics/server/rollups.ts) resolves what needs the
// database (version numbers, when approvals were requested) before calling it.
import type { LedgerBatch } from "../contract/workflow";
import type { RunEvent } from "../contract/types";
import { BUDGET_APPROVAL_TOOL } from "../contract/budget-approval";
import { costAt, type PriceBook } from "../pricing/price-book";
import { binOf, bucketOf, RESOLUTION_MINUTES, RESOLUTIONS } from "./histogram";
import { STARTED_SERIES, type StartedState, type StoredSeriesName } from "./schemas";
import { ROLLUP_SCOPES, type RollupScopeId } from "./scopes";

const SCOPES = Object.values(ROLLUP_SCOPES);

/** The part of an inserted ledger batch the rollups read. */
export interface DerivableBatch {
  run: Pick<LedgerBatch["run"], "runId" | "parentRunId" | "graphName" | "agentVersionId" | "startedBy">;
  summary: Pick<LedgerBatch["summary"], "startedAt">;
  events: RunEvent[];
}

/** One row's key in metric_rollups (absent dimensions are "" and version 0). */
export interface RollupKey {
  /** Which dimensions the row keeps (lib/metrics/scopes.ts); the others are "" / 0. */
  scope: RollupScopeId;
  resolution: number;
  series: StoredSeriesName;
  bucket: number;
  label: string;
  graph: string;
  version: number;
  model: string;
  tool: string;
  starter: string;
  /** A latency histogram bin, or -1 for counters and sums. */
  bin: number;
}

export interface RollupIncrement extends RollupKey {
  count: number;
  sum: number;
}

/**
 * Cost in dollars of a model call at the price in effect when it ran (lib/pricing/price-book.ts:
 * demo models free unless priced, unknown models unpriced). A later price change leaves the
 * rollups as they were derived: the run pages price from the ledger and follow it.
 */
export function callCost(model: string, usage: { inputTokens: number; outputTokens: number }, prices: PriceBook, atMs: number): number | null {
  return costAt(prices, model, usage, atMs);
}

/** Where a top-level run is now, as the started_* series count it: its state, and a failed run's reason. */
export interface StartedCount {
  state: StartedState;
  reason?: string;
}

/**
 * What the started_* series need of the database (lib/metrics/server/rollups.ts reads it): a run is counted in
 * the minute its row says it started, and each state event moves it from where the ledger had it before.
 */
export interface StartedRuns {
  /** When the run's row says it started (ms): the runs list filters by it, so its bars do too. */
  startMsOf(runId: string): number | undefined;
  /** Where the run was before the first of its events in these batches: null before run_started. */
  priorOf(runId: string): StartedCount | null;
  /** Whether an event at `atMs` moves the run's count (false: a backfill already counted it, lib/run-ledger/started-backfill.ts). */
  counts(runId: string, atMs: number): boolean;
}

export interface DeriveContext {
  /** agentVersionId → its version number (0 when unknown). */
  versionOf: (agentVersionId: string) => number;
  /** When an approval was requested (ms), for the time to decide; undefined when unknown. */
  requestedAtOf: (approvalId: string) => number | undefined;
  prices: PriceBook;
  /** Omitted: the started_* series are not derived (a caller with no ledger to ask). */
  started?: StartedRuns;
  /** Only the started_* series: their backfill, over events whose other series were derived already. */
  startedOnly?: boolean;
}

/** Where a state event puts a top-level run; undefined for the events that do not move it. */
export function startedStateAfter(event: RunEvent): StartedCount | undefined {
  switch (event.type) {
    case "run_started":
    case "user_message":
      return { state: "running" };
    case "run_completed":
      return { state: "completed" };
    case "run_failed":
      return { state: "failed", reason: event.reason };
    case "run_cancelled":
      return { state: "cancelled" };
    default:
      return undefined;
  }
}

/** The event types that move a top-level run between the started_* series. */
export const STATE_EVENT_TYPES = ["run_started", "user_message", "run_completed", "run_failed", "run_cancelled"] as const satisfies readonly RunEvent["type"][];

const sameCount = (a: StartedCount | null, b: StartedCount) => a !== null && a.state === b.state && (a.reason ?? "") === (b.reason ?? "");

/** One observation before bucketing: what, when, how much. */
interface Observation {
  series: StoredSeriesName;
  atMs: number;
  label?: string;
  model?: string;
  tool?: string;
  /** Latencies: the duration in ms (binned); sums: the amount; counters: omitted (1). */
  value?: number;
  latency?: boolean;
  /** How much the counter moves: 1 unless a run leaves a state (−1). */
  count?: number;
}

function keyString(key: RollupKey): string {
  return [key.scope, key.resolution, key.series, key.bucket, key.label, key.graph, key.version, key.model, key.tool, key.starter, key.bin].join("\u0000");
}

/**
 * What one event tells the rollups. Runs' own series (started, ended, latency)
 * count top-level runs only, as the runs list they drill down to does; model
 * and tool calls, tokens, cost, approvals, routing and plans count every run
 * of the tree, sub-runs included, since that is where they happen.
 */
function observe(event: RunEvent, batch: DerivableBatch, context: DeriveContext): Observation[] {
  const atMs = Date.parse(event.at);
  const isRoot = batch.run.parentRunId === null;
  const runLatency = (): Observation => ({ series: "run_latency", atMs, value: atMs - Date.parse(batch.summary.startedAt), latency: true });
  switch (event.type) {
    case "run_started":
      return isRoot ? [{ series: "runs_started", atMs }] : [];
    case "run_completed":
      return isRoot ? [{ series: "runs_completed", atMs }, runLatency()] : [];
    case "run_cancelled":
      return isRoot ? [{ series: "runs_cancelled", atMs }, runLatency()] : [];
    case "run_failed": {
      const typed: Observation[] = [];
      // The orchestration modes' failures count wherever they happen (a routed sub-run's too).
      if (event.reason === "routing_exhausted") typed.push({ series: "routing_exhausted", atMs });
      if (event.reason === "validation_error") typed.push({ series: "validation_errors", atMs });
      return isRoot ? [{ series: "runs_failed", atMs, label: event.reason }, runLatency(), ...typed] : typed;
    }
    case "inference_completed": {
      const { usage, model } = event;
      const cost = callCost(model, usage, context.prices, atMs);
      return [
        { series: "model_latency", atMs, model, value: event.latencyMs, latency: true },
        { series: "tokens_in", atMs, model, value: usage.inputTokens },
        { series: "tokens_out", atMs, model, value: usage.outputTokens },
        // A model without a price adds nothing to the cost (its tokens still count above).
        ...(cost === null ? [] : [{ series: "cost" as const, atMs, model, value: cost }]),
        // Its cost is unknown: the dashboard says so rather than a total that reads as if it were free. A
        // replayed call (no tokens: no model was asked) cost nothing, priced or not.
        ...(cost === null && usage.inputTokens + usage.outputTokens > 0 ? [{ series: "unpriced_calls" as const, atMs, model }] : []),
      ];
    }
    case "tool_call_completed":
      return [{ series: "tool_latency", atMs, tool: event.tool, label: event.outcome, value: event.durationMs, latency: true }];
    case "approval_requested":
      return [{ series: "approvals_requested", atMs, tool: event.approval.toolName, label: event.approval.kind ?? "tool" }];
    case "approval_decided": {
      const observations: Observation[] = [{ series: "approvals_decided", atMs, tool: event.tool, label: event.status }];
      const requestedAt = context.requestedAtOf(event.approvalId);
      if (requestedAt !== undefined) observations.push({ series: "approval_wait", atMs, tool: event.tool, value: Math.max(0, atMs - requestedAt), latency: true });
      if (event.tool === BUDGET_APPROVAL_TOOL) observations.push({ series: "budget_asks", atMs, label: event.status === "approved" ? "granted" : "refused" });
      return observations;
    }
    case "budget_extension_requested":
      return [{ series: "budget_asks", atMs, label: "requested" }];
    case "routing_decided": {
      const { decision } = event;
      const routed: Observation[] = [{ series: "routing_decisions", atMs, label: decision.chosen }];
      if (decision.fallbackTaken) routed.push({ series: "routing_fallbacks", atMs, label: decision.chosen });
      return routed;
    }
    case "output_invalid":
      return event.repairing ? [{ series: "answers_repaired", atMs }] : [];
    case "plan_finished":
      return [{ series: "plan_outcomes", atMs, label: event.outcome }];
    case "plan_node_finished":
      return event.status === "failed" ? [{ series: "plan_node_failures", atMs }] : [];
    case "guardrail_checked": {
      const observations: Observation[] = event.tripped ? [{ series: "guardrail_trips", atMs, label: event.guardrail, ...(event.tool ? { tool: event.tool } : {}) }] : [];
      // A judge's model call: its tokens and cost count like any model call's.
      if (event.model && event.usage) {
        const cost = callCost(event.model, event.usage, context.prices, atMs);
        observations.push({ series: "tokens_in", atMs, model: event.model, value: event.usage.inputTokens }, { series: "tokens_out", atMs, model: event.model, value: event.usage.outputTokens });
        if (cost !== null) observations.push({ series: "cost", atMs, model: event.model, value: cost });
      }
      return observations;
    }
    default:
      return [];
  }
}

/**
 * The started_* series' moves of one event of a top-level run: out of where the run was (−1) and into where the
 * event puts it (+1), both in the minute the run started. `now` holds each run's state across the batches.
 */
function moves(event: RunEvent, batch: DerivableBatch, started: StartedRuns, now: Map<string, StartedCount | null>): Observation[] {
  const next = startedStateAfter(event);
  if (!next || batch.run.parentRunId !== null) return [];
  const { runId } = batch.run;
  const before = now.has(runId) ? (now.get(runId) ?? null) : started.priorOf(runId);
  now.set(runId, next);
  const startMs = started.startMsOf(runId);
  if (startMs === undefined || sameCount(before, next) || !started.counts(runId, Date.parse(event.at))) return [];
  const into: Observation = { series: STARTED_SERIES[next.state], atMs: startMs, label: next.reason, count: 1 };
  return before ? [{ series: STARTED_SERIES[before.state], atMs: startMs, label: before.reason, count: -1 }, into] : [into];
}

/** The increments of every inserted event of `batches`, one per distinct key and resolution. */
export function deriveIncrements(batches: readonly DerivableBatch[], context: DeriveContext): RollupIncrement[] {
  const byKey = new Map<string, RollupIncrement>();
  const runStates = new Map<string, StartedCount | null>();
  for (const batch of batches) {
    const graph = batch.run.graphName ?? "";
    const version = batch.run.agentVersionId ? context.versionOf(batch.run.agentVersionId) : 0;
    const starter = batch.run.startedBy ?? "";
    for (const event of batch.events) {
      const observations = context.startedOnly ? [] : observe(event, batch, context);
      if (context.started) observations.push(...moves(event, batch, context.started, runStates));
      for (const observation of observations) {
        if (!Number.isFinite(observation.atMs)) continue;
        const value = observation.value ?? 0;
        const count = observation.count ?? 1;
        const bin = observation.latency ? binOf(value) : -1;
        for (const resolution of RESOLUTIONS) {
          const cube: RollupKey = {
            scope: 1,
            resolution: RESOLUTION_MINUTES[resolution],
            series: observation.series,
            bucket: bucketOf(observation.atMs, resolution),
            label: observation.label ?? "",
            graph,
            version,
            model: observation.model ?? "",
            tool: observation.tool ?? "",
            starter,
            bin,
          };
          // The same observation in every scope, each keeping only its dimensions (reads pick the smallest that serves them).
          for (const scope of SCOPES) {
            const keeps: readonly string[] = scope.keeps;
            const key: RollupKey = {
              ...cube,
              scope: scope.id,
              graph: keeps.includes("graph") ? cube.graph : "",
              version: keeps.includes("version") ? cube.version : 0,
              model: keeps.includes("model") ? cube.model : "",
              tool: keeps.includes("tool") ? cube.tool : "",
              starter: keeps.includes("starter") ? cube.starter : "",
            };
            const id = keyString(key);
            const existing = byKey.get(id);
            if (existing) {
              existing.count += count;
              existing.sum += value;
            } else byKey.set(id, { ...key, count, sum: value });
          }
        }
      }
    }
  }
  // A fixed order, so concurrent writers lock shared rows in the same order (no deadlocks on PostgreSQL).
  // A run that left a state and came back within these batches moves nothing: no row is written for it.
  const moved = [...byKey.entries()].filter(([, increment]) => increment.count !== 0 || increment.sum !== 0);
  return moved.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, increment]) => increment);
}
