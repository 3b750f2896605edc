// Reading runs: a run's summary, history, events, trace and the queries its
// workflow answers; the runs list; pending approvals across runs. Every read
// that names a run checks it is a row of the runs table first. Reads that need
// no live state come from the run ledger alone; the two that do (pending
// approvals, conversations) ask the workflow within a deadline and fall back
// to the ledger on any failure, so no read waits on or fails with a workflow.
import { conversationsQuery, pendingApprovalsQuery } from "../contract/definitions";
import type { ApprovalRequest, ChatMessage, Conversation, RunEvent, TraceNode } from "../contract/types";
import { TERMINAL_STATUSES } from "../contract/types";
import type { PlanOutcome } from "../contract/plan";
import {
  planOutcomeOf,
  readEventPage,
  readMessages,
  readRunRows,
  readRunSummary,
  readSpans,
  spanTree,
  type EventPage,
  type RunSummaryWithPlan,
} from "../run-ledger/read";
import type { EngineContext } from "./engine-context";
import { RunNotFound } from "./errors";
import { readVisibility, type Visibility } from "./visibility";
import { collectPendingApprovals, ledgerPendingApprovals } from "./pending-approvals";
import { ledgerConversations } from "./ledger-conversations";
import { QUERY_DEADLINE_MS, queryFailure, withQueryDeadline } from "./query-deadline";

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

/** The engine client's reads. */
export function createRunReads({ temporal, db, handle, queryOrLedger, requireKnownRun }: Pick<EngineContext, "temporal" | "db" | "handle" | "queryOrLedger" | "requireKnownRun">) {
  /** The run's ledger row, or RunNotFound: every read that names a run starts here. */
  async function ledgerSummary(runId: string): Promise<RunSummaryWithPlan> {
    const stored = await readRunSummary(db, runId);
    if (!stored) throw new RunNotFound(runId);
    return stored;
  }

  return {
    /**
     * The run's summary as the run ledger holds it: the row the workflow
     * rewrites with every batch, in the same transaction as the events it
     * counts, so a summary that says the run ended comes with all its events.
     * No query: a summary needs no live state, and a query would wait for a
     * busy workflow task, fail while the workflow task is in failed state and
     * need a worker to replay a closed run. The route, the run page's polling,
     * `waitForRun` and `streamRun` all read it here.
     */
    getRun: (runId: string): Promise<RunSummaryWithPlan> => ledgerSummary(runId),
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
    /**
     * The run's sub-agent conversations, live from the workflow; from the ledger's
     * sub-agent events when the workflow does not answer, or when the run
     * failed or was cancelled (its workflow has closed: no need to replay it).
     */
    async getConversations(runId: string): Promise<Conversation[]> {
      const { status } = await ledgerSummary(runId);
      const fromLedger = () => ledgerConversations(db, runId, status);
      if (status === "failed" || status === "cancelled") return fromLedger();
      return queryOrLedger(runId, conversationsQuery, fromLedger);
    },

    /**
     * The run's pending approvals, live from the workflow (deciding needs the
     * truth). A run the ledger says ended waits for nothing and is not asked; a
     * run that does not answer shows the ledger's pending records, marked
     * `unconfirmed` (a decision still goes to the run, which refuses what is no
     * longer pending).
     */
    async getPendingApprovals(runId: string): Promise<ApprovalRequest[]> {
      const { status } = await ledgerSummary(runId);
      if (TERMINAL_STATUSES.includes(status)) return [];
      return queryOrLedger(runId, pendingApprovalsQuery, () => ledgerPendingApprovals(db, [runId]));
    },

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
     * agent graph, `entryAgent` the agent the run starts with. When visibility
     * does not answer, every run's Temporal status is UNKNOWN and its close
     * time the ledger's: the list itself never depends on Temporal.
     */
    async listRuns(options: { graph?: string; entryAgent?: string; scheduleId?: string; includeSubRuns?: boolean; pendingApprovalsOnly?: boolean; limit?: number } = {}): Promise<RunListItem[]> {
      const { rows } = await readRunRows(
        db,
        { topLevel: !options.includeSubRuns && !options.pendingApprovalsOnly, graph: options.graph, entryAgent: options.entryAgent, scheduleId: options.scheduleId, awaitingApproval: options.pendingApprovalsOnly },
        { take: options.limit ?? 100 },
      );
      const visibility = await readVisibility(temporal, rows.map((r) => r.id)).catch((error: unknown) => {
        console.warn(`engine: Temporal's visibility did not answer for the run list (${queryFailure(error)}); listing the ledger's runs without Temporal's statuses`);
        return new Map<string, Visibility>();
      });
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
          ask: (id) => withQueryDeadline(temporal, id, QUERY_DEADLINE_MS, () => handle(id).query(pendingApprovalsQuery)),
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
