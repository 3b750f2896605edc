import "server-only";
import { getDb } from "../../db/server/db";
import { writeTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import { isRole } from "../../auth/roles";
import { ConflictError, NotFoundError } from "../../errors";
import type { ChangeRoleInput, UserSummary } from "../schemas";
import type { SessionUser } from "../../auth/server/session";

/** Every user, oldest first. */
export async function listUsers(): Promise<UserSummary[]> {
  const users = await getDb().user.findMany({ orderBy: { createdAt: "asc" } });
  return users.map((u) => ({
    id: u.id,
    email: u.email,
    name: u.name,
    role: isRole(u.role) ? u.role : "viewer",
    lastSignInAt: u.lastSignInAt?.toISOString() ?? null,
    createdAt: u.createdAt.toISOString(),
  }));
}

/** Changes a user's role, refusing to leave the system without an admin; audited. */
export async function changeUserRole(actor: SessionUser, input: ChangeRoleInput): Promise<UserSummary> {
  // Serializable (writeTransaction): two admins demoting each other at once cannot both pass the last-admin check.
  const updated = await writeTransaction(getDb(), async (tx) => {
    const target = await tx.user.findUnique({ where: { id: input.userId } });
    if (!target) throw new NotFoundError("That user");
    if (target.role === "admin" && input.role !== "admin") {
      const admins = await tx.user.count({ where: { role: "admin" } });
      if (admins <= 1) throw new ConflictError("This is the last admin; make someone else admin first");
    }
    const user = await tx.user.update({ where: { id: target.id }, data: { role: input.role } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "user.role_changed", target: target.id, details: { email: target.email, from: target.role, to: input.role } });
    return user;
  });
  return {
    id: updated.id,
    email: updated.email,
    name: updated.name,
    role: input.role,
    lastSignInAt: updated.lastSignInAt?.toISOString() ?? null,
    createdAt: updated.createdAt.toISOString(),
  };
}
