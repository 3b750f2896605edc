import "server-only";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";
import type { Provider } from "next-auth/providers";
import { z } from "zod";
import { authConfig, SIGN_IN_PATH } from "../auth-config";
import { hashPassword, needsRehash, verifyPassword } from "../passwords";
import { decideOAuthSignIn, profileEmailVerified } from "../oauth";
import { isSignedOut, sessionClaims, sessionUserStanding } from "./sessions";
import { clientIp, consumeSignInAttempt, normalizeAttemptEmail, recordSignInFailure, recordSignInSuccess, type SignInAttempt, type SignInTicket } from "./throttle";
import { githubVerifiedEmailUserinfo } from "./github-email";
import { getDb } from "../../db/server/db";
import { getConfig } from "../../config/server/config";
import { appendAudit } from "../../audit/write";
import type { Db } from "../../db/prisma";

const credentialsSchema = z.object({
  email: z.email().max(320).transform((e) => e.toLowerCase()),
  password: z.string().min(1).max(200),
});

class InvalidCredentials extends CredentialsSignin {
  override code = "invalid_credentials";
}

/** Too many failed attempts for this account or address: refused before any password is hashed. */
export class SignInThrottled extends CredentialsSignin {
  override code = "throttled";
  constructor(readonly retryAfterSeconds: number) {
    super();
  }
}

// A real argon2id hash (same parameters) of a random string: verifying against
// it when the email is unknown keeps the response time the same as for a wrong password.
const TIMING_DECOY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$jUeTOxhbP55Bqp142BCybQ$GHaFuuegCRwQmp1Bw/m/NH0qmA3IS60HSWAGtCb2iXk";

type FailureReason = "malformed" | "unknown_email" | "no_password" | "wrong_password" | "disabled" | "demo_in_production";

async function refuse(db: Db, ticket: SignInTicket, reason: FailureReason): Promise<never> {
  const { attempt } = ticket;
  await recordSignInFailure(db, ticket);
  // The email tried and the address, never the password. The reason is for admins reading the log;
  // the person signing in hears the same sentence whatever it is.
  await appendAudit(db, { actorId: null, action: "auth.sign_in_failed", target: attempt.email || null, details: { email: attempt.email, ip: attempt.ip, reason } });
  throw new InvalidCredentials();
}

/**
 * Checks a password sign-in. The attempt is counted first, atomically (the
 * throttle's consume): a refused one hashes nothing, and parallel attempts
 * cannot all pass a limit read before any of them was counted. A disabled
 * account — or, in production mode, a demo account — is refused like a wrong
 * password, so the form does not tell an attacker which accounts exist or are
 * disabled (ASVS 2.2.1 / 3.x); the audit row (admins only) says which.
 */
async function authorizePassword(raw: Partial<Record<string, unknown>>, request: Request) {
  const db = getDb();
  const attempt: SignInAttempt = { email: normalizeAttemptEmail(raw.email), ip: clientIp(request.headers, getConfig().auth.trustProxy) };
  const gate = await consumeSignInAttempt(db, attempt);
  if (!gate.allowed) throw new SignInThrottled(gate.retryAfterSeconds);
  const { ticket } = gate;
  const parsed = credentialsSchema.safeParse(raw);
  if (!parsed.success) return refuse(db, ticket, "malformed");
  const user = await db.user.findUnique({ where: { email: parsed.data.email }, omit: { passwordHash: false } });
  const valid = await verifyPassword(parsed.data.password, user?.passwordHash ?? TIMING_DECOY_HASH);
  if (!user) return refuse(db, ticket, "unknown_email");
  if (!user.passwordHash) return refuse(db, ticket, "no_password");
  if (!valid) return refuse(db, ticket, "wrong_password");
  if (user.disabledAt) return refuse(db, ticket, "disabled");
  if (user.isDemo && getConfig().mode === "production") return refuse(db, ticket, "demo_in_production");
  await recordSignInSuccess(db, ticket);
  // A legacy bcrypt hash is replaced by argon2id now that we hold the password.
  const rehashed = needsRehash(user.passwordHash) ? await hashPassword(parsed.data.password) : null;
  await db.user.update({ where: { id: user.id }, data: { lastSignInAt: new Date(), ...(rehashed ? { passwordHash: rehashed } : {}) } });
  await appendAudit(db, { actorId: user.id, action: "auth.signed_in", target: user.id, details: { method: "password", ip: attempt.ip } });
  return { id: user.id, email: user.email, name: user.name };
}

function providers(): Provider[] {
  const config = getConfig();
  const list: Provider[] = [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      authorize: authorizePassword,
    }),
  ];
  if (config.auth.github) {
    list.push(GitHub({ clientId: config.auth.github.id, clientSecret: config.auth.github.secret, userinfo: githubVerifiedEmailUserinfo }));
  }
  if (config.auth.google) list.push(Google({ clientId: config.auth.google.id, clientSecret: config.auth.google.secret }));
  return list;
}

/** The OAuth providers switched on by the environment, for the sign-in page. */
export function oauthProviders(): { id: string; name: string }[] {
  const config = getConfig();
  return [
    ...(config.auth.github ? [{ id: "github", name: "GitHub" }] : []),
    ...(config.auth.google ? [{ id: "google", name: "Google" }] : []),
  ];
}

/**
 * Whether the user behind a session still may use it: exists, is enabled (not a
 * demo account in production mode), and signed in after the last password
 * change, reset, disable or enable.
 */
export async function sessionUserValid(db: Db, userId: string, signedInAt: number): Promise<boolean> {
  return (await sessionUserStanding(db, userId, signedInAt)).refusal === null;
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  ...authConfig,
  secret: getConfig().auth.secret,
  providers: providers(),
  logger: {
    // A wrong password or a throttled attempt is an expected outcome, not a server error worth a log line.
    error(error) {
      if (error.name === "CredentialsSignin" || error instanceof CredentialsSignin) return;
      console.error(`[auth] ${error.name}: ${error.message}`);
    },
  },
  callbacks: {
    ...authConfig.callbacks,
    // Every server-side read of a session (pages, route handlers, actions,
    // /api/auth/session) passes here: a signed-out session's token is refused
    // even when a copy of its cookie survives, and so is every session of a
    // disabled user or one that began before a password change or reset.
    async jwt(params) {
      const token = authConfig.callbacks.jwt(params);
      if (params.user) return token;
      const claims = sessionClaims(token);
      const db = getDb();
      if (!claims || (await isSignedOut(db, claims))) return null;
      if (!(await sessionUserValid(db, claims.userId, claims.signedInAt))) return null;
      return token;
    },
    // OAuth: only verified emails, only allowed domains or invited accounts, and
    // never onto an account that has a password (lib/auth/oauth.ts decides).
    async signIn({ user, account, profile }) {
      if (!account || account.type === "credentials") return true;
      const db = getDb();
      const config = getConfig();
      const email = user.email?.trim().toLowerCase() ?? null;
      const link = await db.account.findUnique({
        where: { provider_providerAccountId: { provider: account.provider, providerAccountId: account.providerAccountId } },
        include: { user: { select: { id: true, disabledAt: true } } },
      });
      const withEmail = email ? await db.user.findUnique({ where: { email }, omit: { passwordHash: false } }) : null;
      const decision = decideOAuthSignIn({
        email,
        emailVerified: profileEmailVerified(profile),
        allowedDomains: config.auth.oauthAllowedDomains,
        linkedUser: link ? { id: link.user.id, disabled: link.user.disabledAt !== null } : null,
        userWithEmail: withEmail ? { id: withEmail.id, disabled: withEmail.disabledAt !== null, hasPassword: withEmail.passwordHash !== null } : null,
      });
      if (decision.kind === "refuse") {
        await appendAudit(db, { actorId: null, action: "auth.sign_in_failed", target: email, details: { email, method: account.provider, reason: decision.reason } });
        return `${SIGN_IN_PATH}?error=${decision.reason}`;
      }
      let userId: string;
      if (decision.kind === "create") {
        const created = await db.user.create({ data: { email: decision.email, name: user.name ?? decision.email, role: config.auth.oauthDefaultRole } });
        await appendAudit(db, { actorId: null, action: "user.created", target: created.id, details: { email: created.email, role: created.role, via: account.provider } });
        userId = created.id;
      } else {
        userId = decision.userId;
      }
      if (decision.kind !== "sign_in") {
        await db.account.create({ data: { provider: account.provider, providerAccountId: account.providerAccountId, userId } });
      }
      await db.user.update({ where: { id: userId }, data: { lastSignInAt: new Date() } });
      await appendAudit(db, { actorId: userId, action: "auth.signed_in", target: userId, details: { method: account.provider } });
      user.id = userId;
      return true;
    },
  },
}));
