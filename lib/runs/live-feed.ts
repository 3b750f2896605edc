// Browser-safe contract of the live lists' feeds (GET /api/runs/feed and
// GET /api/approvals/feed, Server-Sent Events): what each event carries and
// the query both accept. The server half is lib/runs/server/live-feed.ts.
import { z } from "zod";
import type { RunStatus } from "../contract/types";

/** The two feeds: runs changed (the runs list), approvals asked or decided (the inbox). */
export const LIVE_TOPICS = ["runs", "approvals"] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[number];

/** `event: run` on the runs feed: a run's row was written (new run, status, iteration, pending approvals, a new ledger event). */
export interface RunChange {
  runId: string;
  rootRunId: string;
  parentRunId: string | null;
  status: RunStatus;
  iteration: number;
  pendingApprovals: number;
  lastEventSeq: number;
  endedAt: string | null;
  updatedAt: string;
  /** Only for a run that just started (no ledger event yet): enough for the list to show its row before it reads itself again. */
  started?: RunStart;
}

/** What the runs list shows of a run that just started; the task cut to 300 characters as the list does. */
export interface RunStart {
  agentName: string;
  graphName: string | null;
  startedBy: string | null;
  task: string;
  startedAt: string;
}

/** `event: approval` on the approvals feed: an approval was asked (pending) or decided. */
export interface ApprovalChange {
  approvalId: string;
  runId: string;
  rootRunId: string;
  agentName: string;
  toolName: string;
  status: string;
  requestedAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
}

/** `event: pending` on the approvals feed: a run's count of pending approvals moved (a decision applied, an ask withdrawn). */
export interface PendingChange {
  runId: string;
  rootRunId: string;
  pendingApprovals: number;
}

/** One change as the feeds send it; `cursor` (ms since the epoch) is its SSE id, to resume after. */
export type LiveChange =
  | { topic: "runs"; event: "run"; cursor: number; data: RunChange }
  | { topic: "approvals"; event: "approval"; cursor: number; data: ApprovalChange }
  | { topic: "approvals"; event: "pending"; cursor: number; data: PendingChange };

/** Every event name a feed sends besides its changes: `ready` once connected, `resync` when changes were skipped (reload the list). */
export const FEED_CONTROL_EVENTS = ["ready", "resync"] as const;

/** `?since=<ms>`: resume after this cursor (an EventSource's Last-Event-ID wins); absent: changes from now on. */
export const liveFeedQuerySchema = z.strictObject({
  since: z.coerce.number({ error: "since must be a cursor (milliseconds since the epoch)" }).int().min(0).max(8_640_000_000_000_000).optional(),
});
