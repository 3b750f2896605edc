import "server-only";
// The operations on runs, one each (schema, permission, act and audit), from
// which both doors are built: the server actions and the /api/runs routes.
import { getDb } from "../../db/server/db";
import { getEngine } from "../../engine/server/engine";
import { appendAudit } from "../../audit/write";
import type { SessionUser } from "../../auth/server/session";
import { operation } from "../../http/server/operation";
import { followUpSchema, launchRunSchema, runIdInputSchema } from "../schemas";
import { launchRun } from "./launch";
import { assertMayControlRun } from "./run-ownership";
import type { ImageInput } from "../../attachments/schemas";

/** What both doors answer: the engine took the request (the run applies it asynchronously). */
export type Accepted = { accepted: true };

/**
 * Sends a follow-up message (and its images) to a run and audits it: while the run is open, under its
 * graph's follow-up policy (queued, refused with a 409 while it works, or interrupting the turn:
 * docs/engine.md "Messages that arrive mid-run"); once it completed, as a continuation.
 */
export async function sendFollowUp(runId: string, content: string, user: SessionUser, images?: readonly ImageInput[]): Promise<Accepted> {
  await assertMayControlRun(getDb(), runId, user, "send a follow-up to");
  // The sender counts as "self" for the approvals of the calls that follow the message.
  await getEngine().sendMessage(runId, content, images, { id: user.id, email: user.email });
  // The message itself is in the run's ledger; the audit row says who sent one (and how many images), not what.
  await appendAudit(getDb(), { actorId: user.id, action: "run.follow_up", target: runId, ...(images?.length ? { details: { images: images.length } } : {}) });
  return { accepted: true };
}

/** Cancels a run, its in-flight work and its sub-agent conversations, and audits it. */
export async function cancelRun(runId: string, user: SessionUser): Promise<Accepted> {
  await assertMayControlRun(getDb(), runId, user, "cancel");
  await getEngine().cancelRun(runId);
  await appendAudit(getDb(), { actorId: user.id, action: "run.cancelled", target: runId });
  return { accepted: true };
}

/** Start a run of a saved agent: the run dialog's action and `POST /api/runs`. */
export const startRunOperation = operation({ name: "start-run", permission: "runs:launch", input: launchRunSchema, run: ({ input, user }) => launchRun(input, user) });

/** A follow-up: the run page's action and `POST /api/runs/:runId/messages`. */
export const followUpOperation = operation({
  name: "send-follow-up",
  permission: "runs:launch",
  input: followUpSchema,
  run: ({ input, user }) => sendFollowUp(input.runId, input.content, user, input.images),
});

/** Cancel: the run page's action and `POST /api/runs/:runId/cancel`. */
export const cancelRunOperation = operation({ name: "cancel-run", permission: "runs:launch", input: runIdInputSchema, run: ({ input, user }) => cancelRun(input.runId, user) });
