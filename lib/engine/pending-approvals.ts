// Every pending approval across runs, asked of each run that the ledger says
// waits. A run's own query is the truth (the ledger trails it), but a query can
// fail — a worker busy replaying, a loaded machine, a worker just lost — and a
// failed query used to drop that run's approvals from the inbox without a word.
// Now: a bounded number of queries at once, each within the query deadline,
// one more try for a run that did not answer, the whole within a time budget,
// and for a run that still did not answer, its pending approvals as the ledger
// recorded them, marked `unconfirmed` (deciding one still goes to the run,
// which refuses what is no longer pending). Nothing that waits is hidden, and
// no worker, up or down, can keep the inbox from answering.
import type { Db } from "../db/prisma";
import type { ApprovalRequest } from "../contract/types";
import { BUDGET_APPROVAL_TOOL } from "../contract/budget-approval";
import { PLAN_APPROVAL_TOOL } from "../contract/plan-approval";
import { SPEND_LIMIT_APPROVAL_TOOL } from "../contract/spend-limit-approval";

/** Queries in flight at once: a hundred runs waiting must not mean a hundred queries on the workers together. */
export const PENDING_QUERY_CONCURRENCY = 16;

export interface PendingApprovalSources {
  /** The run's own answer (its workflow query). */
  ask: (runId: string) => Promise<ApprovalRequest[]>;
  /** The ledger's pending records of these runs. */
  fromLedger: (runIds: string[]) => Promise<ApprovalRequest[]>;
  /** Told which runs did not answer (logged by the caller's server). */
  onUnanswered?: (runIds: string[], error: unknown) => void;
}

/** The longest the inbox waits for runs' answers: past it, the runs not yet answered show the ledger's records. */
export const PENDING_BUDGET_MS = 4_000;

export interface CollectOptions {
  /** The whole collection's time (default PENDING_BUDGET_MS): a worker that is down must not hold the inbox. */
  budgetMs?: number;
}

/**
 * Every run's answer, or the ledger's records of the runs that did not answer
 * (twice) within the budget. Runs still unasked or in flight when the budget
 * ends are not waited for; an answer arriving later is dropped.
 */
export async function collectPendingApprovals(runIds: string[], sources: PendingApprovalSources, options: CollectOptions = {}): Promise<ApprovalRequest[]> {
  const answers = new Map<string, ApprovalRequest[]>();
  let lastError: unknown;
  let next = 0;
  let over = false;
  const worker = async (): Promise<void> => {
    while (next < runIds.length && !over) {
      const runId = runIds[next++] as string;
      try {
        const answer = await sources.ask(runId).catch(() => {
          if (over) throw new Error("the inbox's time for answers is over");
          return sources.ask(runId);
        });
        if (!over) answers.set(runId, answer);
      } catch (error) {
        lastError = error;
      }
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const budgetOver = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, options.budgetMs ?? PENDING_BUDGET_MS);
  });
  try {
    await Promise.race([Promise.all(Array.from({ length: Math.min(PENDING_QUERY_CONCURRENCY, runIds.length) }, worker)), budgetOver]);
  } finally {
    over = true;
    clearTimeout(timer);
  }
  const unanswered = runIds.filter((runId) => !answers.has(runId));
  const answered = [...answers.values()].flat();
  if (!unanswered.length) return answered;
  sources.onUnanswered?.(unanswered, lastError ?? new Error(`no answer within ${options.budgetMs ?? PENDING_BUDGET_MS} ms`));
  return [...answered, ...(await sources.fromLedger(unanswered))];
}

/** The ledger's pending approvals of these runs, as approval requests marked unconfirmed. */
export async function ledgerPendingApprovals(db: Db, runIds: string[]): Promise<ApprovalRequest[]> {
  if (!runIds.length) return [];
  const rows = await db.approvalRecord.findMany({ where: { runId: { in: runIds }, status: "pending" }, orderBy: { requestedAt: "asc" } });
  return rows.map((row) => {
    let args: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(row.arguments);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
    } catch {
      // A record's arguments are JSON the workflow wrote; an unreadable one shows as none rather than hiding the approval.
    }
    const kind: ApprovalRequest["kind"] = row.toolName === BUDGET_APPROVAL_TOOL ? "budget" : row.toolName === PLAN_APPROVAL_TOOL ? "plan" : row.toolName === SPEND_LIMIT_APPROVAL_TOOL ? "spend_limit" : "tool";
    return {
      id: row.id,
      runId: row.runId,
      parentRunId: row.parentRunId,
      rootRunId: row.rootRunId,
      agentName: row.agentName,
      toolName: row.toolName,
      toolCallId: row.toolCallId,
      arguments: args,
      requestedAt: row.requestedAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      requiredRole: row.requiredRole,
      // What the ledger does not hold (endorsements, who counts as self) the run checks when it is decided.
      requiredApprovals: 1,
      endorsements: [],
      requestedBy: null,
      allowSelfApproval: false,
      onExpiry: "reject",
      status: "pending",
      decision: null,
      kind,
      unconfirmed: true,
    };
  });
}
