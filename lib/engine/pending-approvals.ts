// Every pending approval across runs, asked of each run that the ledger says
// waits. A run's own query is the truth (the ledger trails it), but a query can
// fail — a worker busy replaying, a loaded machine, a worker just lost — and a
// failed query used to drop that run's approvals from the inbox without a word.
// Now: a bounded number of queries at once, one more try for a run that did not
// answer, and for a run that still does not, its pending approvals as the
// ledger recorded them, marked `unconfirmed` (deciding one still goes to the
// run, which refuses what is no longer pending). Nothing that waits is hidden.
import type { Db } from "../db/prisma";
import type { ApprovalRequest } from "../contract/types";
import { BUDGET_APPROVAL_TOOL } from "../contract/budget-approval";
import { PLAN_APPROVAL_TOOL } from "../contract/plan-approval";

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

export async function collectPendingApprovals(runIds: string[], sources: PendingApprovalSources): Promise<ApprovalRequest[]> {
  const answers: ApprovalRequest[] = [];
  const unanswered: string[] = [];
  let lastError: unknown;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < runIds.length) {
      const runId = runIds[next++] as string;
      try {
        answers.push(...(await sources.ask(runId)));
      } catch {
        try {
          answers.push(...(await sources.ask(runId)));
        } catch (error) {
          lastError = error;
          unanswered.push(runId);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PENDING_QUERY_CONCURRENCY, runIds.length) }, worker));
  if (!unanswered.length) return answers;
  sources.onUnanswered?.(unanswered, lastError);
  return [...answers, ...(await sources.fromLedger(unanswered))];
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
    const kind: ApprovalRequest["kind"] = row.toolName === BUDGET_APPROVAL_TOOL ? "budget" : row.toolName === PLAN_APPROVAL_TOOL ? "plan" : "tool";
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
