// Reads of what changed in the run ledger since a moment, for the live lists'
// feeds (lib/runs/server/live-changes.ts): one indexed query each, shared by
// every open feed of a web process, never one per connection.
import type { Db } from "../db/prisma";

/** A run row as the runs list and the inbox need to know it changed. */
export interface RunChangeRow {
  id: string;
  rootRunId: string;
  parentRunId: string | null;
  status: string;
  iteration: number;
  pendingApprovals: number;
  lastEventSeq: number;
  endedAt: Date | null;
  updatedAt: Date;
}

/** An approval record as the inbox needs to know it was asked or decided. */
export interface ApprovalChangeRow {
  id: string;
  runId: string;
  rootRunId: string;
  agentName: string;
  toolName: string;
  status: string;
  requestedAt: Date;
  decidedAt: Date | null;
  decidedByEmail: string | null;
}

const RUN_CHANGE = { id: true, rootRunId: true, parentRunId: true, status: true, iteration: true, pendingApprovals: true, lastEventSeq: true, endedAt: true, updatedAt: true } as const;
const APPROVAL_CHANGE = { id: true, runId: true, rootRunId: true, agentName: true, toolName: true, status: true, requestedAt: true, decidedAt: true, decidedByEmail: true } as const;

/** Runs whose row was written after `since` (runs.updated_at is indexed), oldest change first, at most `take`. */
export function readRunsChangedSince(db: Db, since: Date, take: number): Promise<RunChangeRow[]> {
  return db.run.findMany({ where: { updatedAt: { gt: since } }, select: RUN_CHANGE, orderBy: [{ updatedAt: "asc" }, { id: "asc" }], take });
}

/** What the runs list shows of a run that just started: read only for those (their task can be long). */
export function readRunStarts(db: Db, runIds: readonly string[]): Promise<{ id: string; agentName: string; graphName: string | null; startedBy: string | null; task: string; startedAt: Date }[]> {
  if (runIds.length === 0) return Promise.resolve([]);
  return db.run.findMany({ where: { id: { in: [...runIds] } }, select: { id: true, agentName: true, graphName: true, startedBy: true, task: true, startedAt: true } });
}

/** The approval records of these runs (indexed by run id): what a run whose pending count moved now asks or had decided. */
export function readApprovalsOfRuns(db: Db, runIds: readonly string[]): Promise<ApprovalChangeRow[]> {
  if (runIds.length === 0) return Promise.resolve([]);
  return db.approvalRecord.findMany({ where: { runId: { in: [...runIds] } }, select: APPROVAL_CHANGE, orderBy: [{ requestedAt: "asc" }, { id: "asc" }] });
}

/** Approvals decided after `since` (approval_records.decided_at is indexed): the decision is recorded before the run applies it. */
export function readApprovalsDecidedSince(db: Db, since: Date, take: number): Promise<ApprovalChangeRow[]> {
  return db.approvalRecord.findMany({ where: { decidedAt: { gt: since } }, select: APPROVAL_CHANGE, orderBy: [{ decidedAt: "asc" }, { id: "asc" }], take });
}
