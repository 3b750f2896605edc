import "server-only";
// The mutations of a running conversation, one function each, called by both
// doors (the run page's server actions and the /api/runs routes) so both
// check, act and audit the same way.
import { getDb } from "../../db/server/db";
import { getEngine } from "../../engine/server/engine";
import { appendAudit } from "../../audit/write";
import type { SessionUser } from "../../auth/server/session";

/** What both doors answer: the engine took the request (the run applies it asynchronously). */
export type Accepted = { accepted: true };

/** Sends a follow-up message to a run (a signal while open, a continuation once completed) and audits it. */
export async function sendFollowUp(runId: string, content: string, user: SessionUser): Promise<Accepted> {
  await getEngine().sendMessage(runId, content);
  // The message itself is in the run's ledger; the audit row says who sent one, not what.
  await appendAudit(getDb(), { actorId: user.id, action: "run.follow_up", target: runId });
  return { accepted: true };
}

/** Cancels a run, its in-flight work and its sub-agent conversations, and audits it. */
export async function cancelRun(runId: string, user: SessionUser): Promise<Accepted> {
  await getEngine().cancelRun(runId);
  await appendAudit(getDb(), { actorId: user.id, action: "run.cancelled", target: runId });
  return { accepted: true };
}
