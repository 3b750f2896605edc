import "server-only";
// Runs have owners (issue 23 §4): cancelling a run and sending it follow-ups
// are for the person who started its run tree, admins, and the role the
// workspace policy names (`othersRunsRole`). Checked by the operations
// themselves, so the server actions, the HTTP routes and the client meet the
// same rule in one place. An experiment is owned the same way by the person
// who started it (its item runs are started as theirs), so cancelling one — and
// with it their runs — follows the same rule (issue 36 §3).
import type { Db } from "../../db/prisma";
import { ROLES } from "../../access/roles";
import { ForbiddenError } from "../../errors";
import type { SessionUser } from "../../auth/server/session";
import { readRunTreeStarter } from "../../run-ledger/read";
import { getWorkspacePolicy } from "../../policy/server/policy";

const rank = (role: string) => ROLES.indexOf(role as (typeof ROLES)[number]);

/** Who started something: the user's id when it was recorded, and the email the row shows. */
export interface Starter {
  id?: string | null;
  email: string | null;
}

/**
 * Throws ForbiddenError unless `user` may `verb` this `noun` that `starter`
 * started: the starter (by id when recorded, else by email), an admin, or a
 * role at or above the workspace policy's `othersRunsRole`.
 */
export async function assertMayControlStarted(db: Db, starter: Starter, user: SessionUser, verb: string, noun: string): Promise<void> {
  if (user.role === "admin") return;
  if (starter.id && starter.id === user.id) return;
  if (starter.email !== null && starter.email.toLowerCase() === user.email.toLowerCase()) return;
  const { policy } = await getWorkspacePolicy(db);
  if (rank(user.role) >= rank(policy.othersRunsRole)) return;
  const owner = starter.email ? `${starter.email}, who started it,` : "the person who started it";
  throw new ForbiddenError(`Only ${owner} or an admin may ${verb} this ${noun} (the workspace policy lets ${policy.othersRunsRole}s and above act on others' runs)`);
}

/**
 * Throws ForbiddenError unless `user` may `verb` the run: its tree's starter
 * (compared by email, as the run row records the starter), an admin, or a
 * role at or above the policy's `othersRunsRole`. An unknown run passes: the
 * engine answers it with 404.
 */
export async function assertMayControlRun(db: Db, runId: string, user: SessionUser, verb: string): Promise<void> {
  if (user.role === "admin") return;
  const tree = await readRunTreeStarter(db, runId);
  if (!tree) return;
  await assertMayControlStarted(db, { email: tree.startedBy }, user, verb, "run");
}
