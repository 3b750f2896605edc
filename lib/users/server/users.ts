import "server-only";
import { getDb } from "../../db/server/db";
import type { Db } from "../../db/prisma";
import { writeTransaction, type DbTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import { isRole } from "../../access/roles";
import { hashPassword, oneTimePassword, passwordProblem, verifyPassword } from "../../auth/passwords";
import { recordSignInFailure, recordSignInSuccess, signInBlockedFor } from "../../auth/server/throttle";
import { AppError, ConflictError, RateLimitedError, ValidationError } from "../../errors";
import type { ChangeOwnPasswordInput, ChangeRoleInput, CreateUserInput, IssuedPassword, ResetPasswordInput, SetUserDisabledInput, UserSummary } from "../schemas";
import { createUserSchema } from "../schemas";

// One function per account operation: input already validated by the caller's
// schema (server action, route, script), actor given (null: the system, i.e.
// `npm run user:create`), every change audited in the same transaction. The
// role check (`users:manage`) is made by the doors, which all require it.

/** Who acts: a signed-in admin, or null for the system. */
type Actor = { id: string } | null;

interface UserRow {
  id: string;
  email: string;
  name: string;
  role: string;
  disabledAt: Date | null;
  mustChangePassword: boolean;
  isDemo: boolean;
  lastSignInAt: Date | null;
  createdAt: Date;
}

function summary(u: UserRow, hasPassword: boolean): UserSummary {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: isRole(u.role) ? u.role : "viewer",
    status: u.disabledAt ? "disabled" : hasPassword ? "active" : "invited",
    mustChangePassword: u.mustChangePassword,
    isDemo: u.isDemo,
    lastSignInAt: u.lastSignInAt?.toISOString() ?? null,
    createdAt: u.createdAt.toISOString(),
  };
}

/** Every user, oldest first. */
export async function listUsers(db: Db = getDb()): Promise<UserSummary[]> {
  const users = await db.user.findMany({ orderBy: { createdAt: "asc" }, omit: { passwordHash: false } });
  return users.map((u) => summary(u, u.passwordHash !== null));
}

/** A missing account, said as one sentence naming it (every door answers the same). */
export class UserNotFound extends AppError {
  constructor(userId: string) {
    super("not_found", 404, `There is no user with id "${userId}"`);
    this.name = "UserNotFound";
  }
}

async function findUser(tx: DbTransaction, userId: string) {
  const user = await tx.user.findUnique({ where: { id: userId }, omit: { passwordHash: false } });
  if (!user) throw new UserNotFound(userId);
  return user;
}

/** Refuses a change that would leave no enabled admin (counted inside the caller's serializable transaction). */
async function keepAnAdmin(tx: DbTransaction, target: { role: string; disabledAt: Date | null }, message: string): Promise<void> {
  if (target.role !== "admin" || target.disabledAt) return;
  const admins = await tx.user.count({ where: { role: "admin", disabledAt: null } });
  if (admins <= 1) throw new ConflictError(message);
}

/** Creates an account with a one-time password (returned once) or as an invitation without one; audited. */
export async function createUser(actor: Actor, raw: CreateUserInput, db: Db = getDb()): Promise<IssuedPassword> {
  const input = createUserSchema.parse(raw);
  const password = input.kind === "password" ? oneTimePassword() : null;
  const passwordHash = password ? await hashPassword(password) : null;
  const created = await writeTransaction(db, async (tx) => {
    if (await tx.user.findUnique({ where: { email: input.email }, select: { id: true } })) {
      throw new ConflictError(`A user with the email ${input.email} already exists`);
    }
    const user = await tx.user.create({ data: { email: input.email, name: input.name, role: input.role, passwordHash, mustChangePassword: password !== null } });
    await appendAuditInTransaction(tx, { actorId: actor?.id ?? null, action: "user.created", target: user.id, details: { email: user.email, role: user.role, kind: input.kind } });
    return user;
  });
  return { user: summary(created, password !== null), oneTimePassword: password };
}

/** Changes a user's role, refusing to leave the system without an enabled admin; audited. */
export async function changeUserRole(actor: Actor, input: ChangeRoleInput, db: Db = getDb()): Promise<UserSummary> {
  // Serializable (writeTransaction): two admins demoting each other at once cannot both pass the last-admin check.
  return writeTransaction(db, async (tx) => {
    const target = await findUser(tx, input.userId);
    if (input.role !== "admin") await keepAnAdmin(tx, target, "This is the last admin; make someone else admin first");
    const user = await tx.user.update({ where: { id: target.id }, data: { role: input.role } });
    await appendAuditInTransaction(tx, { actorId: actor?.id ?? null, action: "user.role_changed", target: target.id, details: { email: target.email, from: target.role, to: input.role } });
    return summary(user, target.passwordHash !== null);
  });
}

/**
 * Disables or enables an account. A disabled user's sessions end at once (every
 * request re-reads the account) and sign-in is refused. Nobody disables
 * themselves, and the last enabled admin stays; audited.
 */
export async function setUserDisabled(actor: Actor, input: SetUserDisabledInput, db: Db = getDb()): Promise<UserSummary> {
  return writeTransaction(db, async (tx) => {
    const target = await findUser(tx, input.userId);
    if (input.disabled && actor?.id === target.id) throw new ConflictError("You cannot disable your own account");
    if (input.disabled) await keepAnAdmin(tx, target, "This is the last enabled admin; make someone else admin first");
    if (Boolean(target.disabledAt) === input.disabled) return summary(target, target.passwordHash !== null);
    const user = await tx.user.update({ where: { id: target.id }, data: { disabledAt: input.disabled ? new Date() : null } });
    await appendAuditInTransaction(tx, { actorId: actor?.id ?? null, action: input.disabled ? "user.disabled" : "user.enabled", target: target.id, details: { email: target.email } });
    return summary(user, target.passwordHash !== null);
  });
}

/** Gives a user a new one-time password (returned once); their sessions end and they must choose a new password; audited. */
export async function resetUserPassword(actor: Actor, input: ResetPasswordInput, db: Db = getDb()): Promise<IssuedPassword> {
  if (actor?.id === input.userId) throw new ConflictError("Change your own password on your account page");
  const password = oneTimePassword();
  const passwordHash = await hashPassword(password);
  const user = await writeTransaction(db, async (tx) => {
    const target = await findUser(tx, input.userId);
    const updated = await tx.user.update({ where: { id: target.id }, data: { passwordHash, mustChangePassword: true, sessionsValidAfter: new Date() } });
    await appendAuditInTransaction(tx, { actorId: actor?.id ?? null, action: "user.password_reset", target: target.id, details: { email: target.email } });
    return updated;
  });
  await recordSignInSuccess(db, { email: user.email, ip: null });
  return { user: summary(user, true), oneTimePassword: password };
}

/**
 * A user changes their own password: the current one is required (and wrong
 * guesses count against the account's sign-in throttle, so a borrowed session
 * cannot brute-force it), the new one follows the password rules. Every other
 * session ends (sessionsValidAfter); the caller signs this one in again. Audited.
 */
export async function changeOwnPassword(user: { id: string; email: string }, input: ChangeOwnPasswordInput, db: Db = getDb()): Promise<void> {
  const attempt = { email: user.email, ip: null };
  const wait = await signInBlockedFor(db, attempt);
  if (wait > 0) throw new RateLimitedError(wait, `Too many wrong passwords; try again in ${Math.ceil(wait / 60)} minutes`);
  const row = await db.user.findUnique({ where: { id: user.id }, omit: { passwordHash: false } });
  if (!row) throw new UserNotFound(user.id);
  if (!row.passwordHash || !(await verifyPassword(input.currentPassword, row.passwordHash))) {
    await recordSignInFailure(db, attempt);
    throw new ValidationError([{ path: "currentPassword", message: "The current password is wrong" }], "The current password is wrong");
  }
  const problem = passwordProblem(input.newPassword, row.email);
  if (problem) throw new ValidationError([{ path: "newPassword", message: problem }], problem);
  if (input.newPassword === input.currentPassword) {
    throw new ValidationError([{ path: "newPassword", message: "Choose a password different from the current one" }], "Choose a password different from the current one");
  }
  const passwordHash = await hashPassword(input.newPassword);
  await writeTransaction(db, async (tx) => {
    await tx.user.update({ where: { id: row.id }, data: { passwordHash, mustChangePassword: false, sessionsValidAfter: new Date() } });
    await appendAuditInTransaction(tx, { actorId: row.id, action: "user.password_changed", target: row.id, details: { email: row.email } });
  });
  await recordSignInSuccess(db, attempt);
}
