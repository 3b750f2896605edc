// Reading runs: a run's summary, history, events, trace and the queries its
// workflow answers; the runs list; pending approvals across runs. Every read
// that names a run checks it is a row of the runs table first.
import { conversationsQuery, pendingApprovalsQuery, summaryQuery } from "../contract/definitions";
import type { ApprovalRequest, ChatMessage, RunEvent, RunSummary, TraceNode } from "../contract/types";
import { TERMINAL_STATUSES } from "../contract/types";
import type { PlanOutcome } from "../contract/plan";
import {
  planOutcomeOf,
  readEventPage,
  readMessages,
  readLastEventSeq,
  readPlanOutcome,
  readRunRows,
  readRunSummary,
  readSpans,
  spanTree,
  type EventPage,
  type RunSummaryWithPlan,
} from "../run-ledger/read";
import type { EngineContext } from "./engine-context";
import { RunNotFound } from "./errors";
import { isDeadlineExceeded } from "./temporal-errors";
import { readVisibility } from "./visibility";
import { collectPendingApprovals, ledgerPendingApprovals } from "./pending-approvals";

export interface RunListItem {
  runId: string;
  /** The agent the run starts with (not the saved graph's name). */
  entryAgent: string | null;
  status: string;
  /** Temporal's execution status; UNKNOWN while visibility has not listed the run (just started, or past retention). */
  temporalStatus: string;
  pendingApprovals: number;
  parentRunId: string | null;
  /** How the run's last finished plan ended; null when it never finished one. */
  planOutcome: PlanOutcome | null;
  startedAt: string;
  closedAt: string | null;
}

/** How long a summary query may wait for a busy workflow before the ledger answers. */
const SUMMARY_QUERY_DEADLINE_MS = 1_500;

/**
 * How long a summary that says a turn ended waits for the run ledger to hold
 * every event it counts. The workflow's last batch is written while it closes
 * down (a regular activity), so for a moment a query can say "completed" while
 * the ledger lacks the events that led there; a caller that then reads them
 * would miss the last ones. Past this, the summary is returned as it is.
 */
const LEDGER_CATCH_UP_MS = 3_000;
const LEDGER_CATCH_UP_POLL_MS = 25;

async function ledgerCaughtUp(db: EngineContext["db"], runId: string, lastEventSeq: number): Promise<void> {
  const until = Date.now() + LEDGER_CATCH_UP_MS;
  for (;;) {
    const written = await readLastEventSeq(db, runId);
    if (written === null || written >= lastEventSeq || Date.now() >= until) return;
    await new Promise((resolve) => setTimeout(resolve, LEDGER_CATCH_UP_POLL_MS));
  }
}

/** The engine client's reads. */
export function createRunReads({ temporal, db, handle, query, requireKnownRun }: Pick<EngineContext, "temporal" | "db" | "handle" | "query" | "requireKnownRun">) {
  return {
    /**
     * The run's summary from the workflow, or the ledger's copy when Temporal no
     * longer has the run or the workflow cannot answer soon: a query waits for
     * the workflow task in progress, and a long model call (a local activity)
     * keeps one open for up to 80% of the task timeout. The ledger row is the
     * same summary, written as it changes.
     */
    async getRun(runId: string): Promise<RunSummaryWithPlan> {
      let live: RunSummary;
      try {
        live = await temporal.withDeadline(Date.now() + SUMMARY_QUERY_DEADLINE_MS, () => query(runId, summaryQuery));
      } catch (error) {
        if (!(error instanceof RunNotFound) && !isDeadlineExceeded(error)) throw error;
        const stored = await readRunSummary(db, runId);
        if (!stored) throw error;
        return stored;
      }
      // A turn that ended is read back whole: the events (and the plan's outcome) it counts are in the ledger first.
      if (TERMINAL_STATUSES.includes(live.status)) await ledgerCaughtUp(db, runId, live.lastEventSeq);
      // The workflow's summary does not say how a plan ended; the ledger's row does.
      return { ...live, planOutcome: await readPlanOutcome(db, runId) };
    },
    async getHistory(runId: string): Promise<ChatMessage[]> {
      await requireKnownRun(runId);
      return readMessages(db, runId);
    },
    /** A page of events after `sinceSeq`, bounded by count and bytes. */
    async getEventPage(runId: string, sinceSeq = 0, options: { limit?: number; maxBytes?: number } = {}): Promise<EventPage> {
      await requireKnownRun(runId);
      return readEventPage(db, runId, sinceSeq, options);
    },
    async getEvents(runId: string, sinceSeq = 0, options: { limit?: number; maxBytes?: number } = {}): Promise<RunEvent[]> {
      return (await this.getEventPage(runId, sinceSeq, options)).events;
    },
    async getTrace(runId: string): Promise<TraceNode[]> {
      await requireKnownRun(runId);
      return spanTree(await readSpans(db, runId));
    },
    getConversations: (runId: string) => query(runId, conversationsQuery),
    getPendingApprovals: (runId: string) => query(runId, pendingApprovalsQuery),

    /** Yields events as they happen until the run is idle in a final state. */
    async *streamRun(runId: string, options: { sinceSeq?: number; intervalMs?: number; signal?: AbortSignal } = {}): AsyncGenerator<RunEvent> {
      let since = options.sinceSeq ?? 0;
      for (;;) {
        const page = await this.getEventPage(runId, since);
        for (const event of page.events) {
          since = event.seq;
          yield event;
        }
        if (page.hasMore) continue;
        if (page.events.length === 0) {
          const summary = await this.getRun(runId);
          if (TERMINAL_STATUSES.includes(summary.status) && summary.lastEventSeq <= since) return;
        }
        if (options.signal?.aborted) return;
        await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250));
      }
    },

    /**
     * Runs, newest first, from the run ledger (the runs table every door reads),
     * with Temporal's execution status from visibility. `graph` is the saved
     * agent graph, `entryAgent` the agent the run starts with. Fails when
     * visibility does not answer.
     */
    async listRuns(options: { graph?: string; entryAgent?: string; includeSubRuns?: boolean; pendingApprovalsOnly?: boolean; limit?: number } = {}): Promise<RunListItem[]> {
      const { rows } = await readRunRows(
        db,
        { topLevel: !options.includeSubRuns && !options.pendingApprovalsOnly, graph: options.graph, entryAgent: options.entryAgent, awaitingApproval: options.pendingApprovalsOnly },
        { take: options.limit ?? 100 },
      );
      const visibility = await readVisibility(temporal, rows.map((r) => r.id));
      return rows.map((run) => {
        const seen = visibility.get(run.id);
        return {
          runId: run.id,
          entryAgent: run.agentName,
          status: run.status,
          temporalStatus: seen?.status ?? "UNKNOWN",
          pendingApprovals: run.pendingApprovals,
          parentRunId: run.parentRunId,
          planOutcome: planOutcomeOf(run),
          startedAt: run.startedAt.toISOString(),
          closedAt: seen ? seen.closedAt : (run.endedAt?.toISOString() ?? null),
        };
      });
    },

    /**
     * Every pending approval across runs and sub-runs, oldest first. The run
     * ledger only says which runs to ask (its pending count trails the workflow:
     * a run may be listed just after its approval was decided); the run's own
     * query is the truth, so entries are kept only while their run holds them
     * pending, and each approval id appears once.
     */
    async listPendingApprovals(): Promise<ApprovalRequest[]> {
      // Runs of the runs table only, so a foreign workflow of the same type is never asked.
      const { rows } = await readRunRows(db, { awaitingApproval: true }, { take: 500 });
      const approvals = await collectPendingApprovals(
        rows.map((r) => r.id),
        {
          ask: (id) => handle(id).query(pendingApprovalsQuery),
          fromLedger: (ids) => ledgerPendingApprovals(db, ids),
          onUnanswered: (ids, error) =>
            console.warn(`inbox: ${ids.length} run(s) did not answer the pending-approvals query (${error instanceof Error ? error.message : String(error)}); showing the ledger's records for ${ids.slice(0, 5).join(", ")}${ids.length > 5 ? ", …" : ""}`),
        },
      );
      return dedupePending(approvals);
    },
  };
}

/** Pending approvals only, one per id (the first seen wins), oldest first. */
export function dedupePending(approvals: ApprovalRequest[]): ApprovalRequest[] {
  const byId = new Map<string, ApprovalRequest>();
  for (const approval of approvals) if (approval.status === "pending" && !byId.has(approval.id)) byId.set(approval.id, approval);
  return [...byId.values()].sort((a, b) => a.requestedAt.localeCompare(b.requestedAt) || a.id.localeCompare(b.id));
}
