import "server-only";
import { cache } from "react";
import { forbidden, redirect } from "next/navigation";
import { auth } from "./auth";
import { can, isRole, type Permission, type Role } from "../../access/roles";
import { getDb } from "../../db/server/db";
import { getConfig } from "../../config/server/config";
import { ForbiddenError, UnauthenticatedError } from "../../errors";
import { SIGN_IN_PATH } from "../auth-config";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** A one-time password was issued: pages send the user to /account until they choose their own. */
  mustChangePassword?: boolean;
}

/** Where a user with a one-time password chooses a new one. */
export const ACCOUNT_PATH = "/account";

/**
 * The signed-in user, re-read from the database on every request so that a role
 * change, a disabled or deleted account, or a password change or reset takes
 * effect at once (the JWT only carries the id and the sign-in time). The jwt
 * callback (auth.ts) refuses the same sessions; this is the second lock.
 */
export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  const user = await getDb().user.findUnique({
    where: { id },
    select: { id: true, email: true, name: true, role: true, disabledAt: true, sessionsValidAfter: true, mustChangePassword: true, isDemo: true },
  });
  if (!user || !isRole(user.role) || user.disabledAt) return null;
  // Production mode refuses demo accounts at any time: one enabled behind the app's back keeps no session.
  if (user.isDemo && getConfig().mode === "production") return null;
  if (user.sessionsValidAfter && (session.signedInAt ?? 0) < user.sessionsValidAfter.getTime()) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role, mustChangePassword: user.mustChangePassword };
});

/**
 * For pages: redirects to sign-in without a session, to /account while a
 * one-time password must be replaced (unless `allowMustChangePassword`, for
 * the account page itself), and renders 403 without the permission.
 */
export async function requirePageUser(permission: Permission = "read", options: { allowMustChangePassword?: boolean } = {}): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect(SIGN_IN_PATH);
  if (user.mustChangePassword && !options.allowMustChangePassword) redirect(ACCOUNT_PATH);
  if (!can(user.role, permission)) forbidden();
  return user;
}

/**
 * For route handlers and server actions: throws 401 / 403 AppErrors. A user
 * still holding a one-time password may do nothing but replace it
 * (`allowMustChangePassword`): whoever saw that password — the admin who issued
 * it, a mailbox it passed through — must not be able to use the account.
 */
export async function requireUser(permission: Permission = "read", options: { allowMustChangePassword?: boolean } = {}): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) throw new UnauthenticatedError();
  return checkUser(user, permission, options);
}

/** requireUser's checks on a caller already resolved (a session's user, or an API key's: api-route.ts). */
export function checkUser<U extends SessionUser>(user: U, permission: Permission, options: { allowMustChangePassword?: boolean } = {}): U {
  if (user.mustChangePassword && !options.allowMustChangePassword) {
    throw new ForbiddenError("Choose your own password first (Account page): a one-time password only allows that");
  }
  if (!can(user.role, permission)) throw new ForbiddenError(`This needs the "${permission}" permission, which the ${user.role} role does not have`);
  return user;
}
