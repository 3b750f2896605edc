import "server-only";
import { getDb } from "../../db/server/db";
import type { Db } from "../../db/prisma";
import { writeTransaction, type DbTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import { isRole } from "../../access/roles";
import { hashPassword, oneTimePassword, passwordProblem, verifyPassword } from "../../auth/passwords";
import { consumeSignInAttempt, liftSignInBlocks, recordSignInFailure, recordSignInSuccess, signInBlocks, type SignInBlockState } from "../../auth/server/throttle";
import { getConfig } from "../../config/server/config";
import { revokePersonalKeysOnReset } from "../../api-keys/server/api-keys";
import { AppError, ConflictError, RateLimitedError, ValidationError } from "../../errors";
import type { ChangeOwnPasswordInput, ChangeRoleInput, CreateUserInput, IssuedPassword, LiftSignInBlockInput, PasswordReset, ResetPasswordInput, SetUserDisabledInput, UserSummary } from "../schemas";
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

function summary(u: UserRow, hasPassword: boolean, blocks: Map<string, SignInBlockState>): UserSummary {
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
    signInBlock: blocks.get(u.email) ?? null,
  };
}

/** One user's summary with its current sign-in blocks. */
async function summaryOf(tx: Db | DbTransaction, u: UserRow, hasPassword: boolean): Promise<UserSummary> {
  return summary(u, hasPassword, await signInBlocks(tx, [u.email]));
}

/** Every user, oldest first. */
export async function listUsers(db: Db = getDb()): Promise<UserSummary[]> {
  const users = await db.user.findMany({ orderBy: { createdAt: "asc" }, omit: { passwordHash: false } });
  const blocks = await signInBlocks(db, users.map((u) => u.email));
  return users.map((u) => summary(u, u.passwordHash !== null, blocks));
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
  return { user: await summaryOf(db, created, password !== null), oneTimePassword: password };
}

/** Changes a user's role, refusing to leave the system without an enabled admin; audited. */
export async function changeUserRole(actor: Actor, input: ChangeRoleInput, db: Db = getDb()): Promise<UserSummary> {
  // Serializable (writeTransaction): two admins demoting each other at once cannot both pass the last-admin check.
  return writeTransaction(db, async (tx) => {
    const target = await findUser(tx, input.userId);
    if (input.role !== "admin") await keepAnAdmin(tx, target, "This is the last admin; make someone else admin first");
    const user = await tx.user.update({ where: { id: target.id }, data: { role: input.role } });
    await appendAuditInTransaction(tx, { actorId: actor?.id ?? null, action: "user.role_changed", target: target.id, details: { email: target.email, from: target.role, to: input.role } });
    return summaryOf(tx, user, target.passwordHash !== null);
  });
}

/**
 * Disables or enables an account. A disabled user's sessions end at once (every
 * request re-reads the account) and sign-in is refused; either way the
 * sessions issued before stay ended (sessionsValidAfter), so enabling again
 * revives none of them. Nobody disables themselves, the last enabled admin
 * stays, and production mode refuses to enable a demo account (its password is
 * published); audited.
 */
export async function setUserDisabled(actor: Actor, input: SetUserDisabledInput, db: Db = getDb()): Promise<UserSummary> {
  return writeTransaction(db, async (tx) => {
    const target = await findUser(tx, input.userId);
    if (input.disabled && actor?.id === target.id) throw new ConflictError("You cannot disable your own account");
    if (input.disabled) await keepAnAdmin(tx, target, "This is the last enabled admin; make someone else admin first");
    if (!input.disabled && target.isDemo && getConfig().mode === "production") {
      throw new ConflictError(`Production mode refuses to enable the demo account ${target.email}: its password is published`);
    }
    if (Boolean(target.disabledAt) === input.disabled) return summaryOf(tx, target, target.passwordHash !== null);
    const now = new Date();
    const user = await tx.user.update({ where: { id: target.id }, data: { disabledAt: input.disabled ? now : null, sessionsValidAfter: now } });
    await appendAuditInTransaction(tx, { actorId: actor?.id ?? null, action: input.disabled ? "user.disabled" : "user.enabled", target: target.id, details: { email: target.email } });
    return summaryOf(tx, user, target.passwordHash !== null);
  });
}

/**
 * Lifts the sign-in blocks of an account (every address refused for it, its
 * guard and the day's backoff), for the owner who was caught by them; audited
 * with what was lifted (when there was anything). Blocks of an address as a
 * whole (30 failures over any accounts) are not the account's and stay.
 */
export async function liftSignInBlock(actor: Actor, input: LiftSignInBlockInput, db: Db = getDb()): Promise<UserSummary> {
  return writeTransaction(db, async (tx) => {
    const target = await findUser(tx, input.userId);
    const lifted = await liftSignInBlocks(tx, target.email);
    if (lifted.addresses.length > 0 || lifted.guardedUntil) {
      await appendAuditInTransaction(tx, {
        actorId: actor?.id ?? null,
        action: "user.sign_in_unblocked",
        target: target.id,
        details: { email: target.email, addresses: lifted.addresses.map((a) => a.address), guarded: lifted.guardedUntil !== null },
      });
    }
    return summaryOf(tx, target, target.passwordHash !== null);
  });
}

/**
 * Gives a user a new one-time password (returned once); their sessions end,
 * their personal API keys are revoked (a reset is incident response: whoever
 * had the old password may have made keys with it), and they must choose a new
 * password before any key of theirs works again; audited, one row per key.
 */
export async function resetUserPassword(actor: Actor, input: ResetPasswordInput, db: Db = getDb()): Promise<PasswordReset> {
  if (actor?.id === input.userId) throw new ConflictError("Change your own password on your account page");
  const password = oneTimePassword();
  const passwordHash = await hashPassword(password);
  return writeTransaction(db, async (tx) => {
    const target = await findUser(tx, input.userId);
    const updated = await tx.user.update({ where: { id: target.id }, data: { passwordHash, mustChangePassword: true, sessionsValidAfter: new Date() } });
    const revokedApiKeys = await revokePersonalKeysOnReset(tx, target.id, actor?.id ?? null);
    await appendAuditInTransaction(tx, { actorId: actor?.id ?? null, action: "user.password_reset", target: target.id, details: { email: target.email, revokedApiKeys: revokedApiKeys.map((k) => k.id) } });
    // The new password is the admin's answer to a blocked owner too: the account's sign-in blocks go with the old one.
    await liftSignInBlocks(tx, target.email);
    return { user: await summaryOf(tx, updated, true), oneTimePassword: password, revokedApiKeys };
  });
}

/**
 * A user changes their own password: the current one is required (and wrong
 * guesses count against the account's sign-in throttle, so a borrowed session
 * cannot brute-force it), the new one follows the password rules. Every other
 * session ends (sessionsValidAfter); the caller signs this one in again. Audited.
 */
export async function changeOwnPassword(user: { id: string; email: string }, input: ChangeOwnPasswordInput, db: Db = getDb()): Promise<void> {
  // Counted before the hash, like a sign-in (atomic consume): parallel guesses cannot pass the limit together.
  const gate = await consumeSignInAttempt(db, { email: user.email, ip: null });
  if (!gate.allowed) {
    const wait = gate.retryAfterSeconds;
    throw new RateLimitedError(wait, `Too many wrong passwords; try again in ${Math.ceil(wait / 60)} minutes`);
  }
  const row = await db.user.findUnique({ where: { id: user.id }, omit: { passwordHash: false } });
  if (!row) throw new UserNotFound(user.id);
  if (!row.passwordHash || !(await verifyPassword(input.currentPassword, row.passwordHash))) {
    await recordSignInFailure(db, gate.ticket);
    throw new ValidationError([{ path: "currentPassword", message: "The current password is wrong" }], "The current password is wrong");
  }
  await recordSignInSuccess(db, gate.ticket);
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
}
