import "server-only";
import { cache } from "react";
import { forbidden, redirect } from "next/navigation";
import { auth } from "./auth";
import { can, isRole, type Permission, type Role } from "../roles";
import { getDb } from "../../db/server/db";
import { ForbiddenError, UnauthenticatedError } from "../../errors";
import { SIGN_IN_PATH } from "../auth-config";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

/**
 * The signed-in user, re-read from the database on every request so that a role
 * change or a deleted account takes effect at once (the JWT only carries the id).
 */
export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  const user = await getDb().user.findUnique({ where: { id }, select: { id: true, email: true, name: true, role: true } });
  if (!user || !isRole(user.role)) return null;
  return { ...user, role: user.role };
});

/** For pages: redirects to sign-in without a session, renders 403 without the permission. */
export async function requirePageUser(permission: Permission = "read"): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect(SIGN_IN_PATH);
  if (!can(user.role, permission)) forbidden();
  return user;
}

/** For route handlers and server actions: throws 401 / 403 AppErrors. */
export async function requireUser(permission: Permission = "read"): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) throw new UnauthenticatedError();
  if (!can(user.role, permission)) throw new ForbiddenError(`This needs the "${permission}" permission, which the ${user.role} role does not have`);
  return user;
}
