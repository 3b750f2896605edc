import "server-only";
// The workspace policy for the web server: read by anyone signed in, changed
// by admins only (the route and the action check "policy:manage"; this checks
// again so no future door can skip it).
import { getDb } from "../../db/server/db";
import { can } from "../../access/roles";
import { ForbiddenError } from "../../errors";
import type { SessionUser } from "../../auth/server/session";
import type { Db } from "../../db/prisma";
import type { WorkspacePolicyInput, WorkspacePolicyView } from "../schemas";
import { readWorkspacePolicy, writeWorkspacePolicy } from "../store";

/** The policy in force (the default when none was saved). */
export function getWorkspacePolicy(db: Db = getDb()): Promise<WorkspacePolicyView> {
  return readWorkspacePolicy(db);
}

/** Replaces the policy; admins only; audited with before and after. Runs already started keep the policy they started with. */
export async function updateWorkspacePolicy(db: Db, actor: SessionUser, input: WorkspacePolicyInput): Promise<WorkspacePolicyView> {
  if (!can(actor.role, "policy:manage")) throw new ForbiddenError("Only admins may change the workspace policy");
  return writeWorkspacePolicy(db, actor.id, input);
}
