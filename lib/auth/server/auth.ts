import "server-only";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";
import type { Provider } from "next-auth/providers";
import { z } from "zod";
import { authConfig } from "../auth-config";
import { verifyPassword } from "../passwords";
import { isSignedOut, sessionClaims } from "./sessions";
import { getDb } from "../../db/server/db";
import { getConfig } from "../../config/server/config";

const credentialsSchema = z.object({
  email: z.email().max(320).transform((e) => e.toLowerCase()),
  password: z.string().min(1).max(200),
});

class InvalidCredentials extends CredentialsSignin {
  override code = "invalid_credentials";
}

// A real bcrypt hash of a random string: comparing against it when the email is
// unknown keeps the response time the same as for a wrong password.
const TIMING_DECOY_HASH = "$2b$10$/dKNiM1KHlBaVXCQZvSxleIMd3dOZK778fmiX5.zD90Pr5jR.dCYO";

function providers(): Provider[] {
  const config = getConfig();
  const list: Provider[] = [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(raw) {
        const parsed = credentialsSchema.safeParse(raw);
        if (!parsed.success) throw new InvalidCredentials();
        const db = getDb();
        const user = await db.user.findUnique({ where: { email: parsed.data.email }, omit: { passwordHash: false } });
        const valid = await verifyPassword(parsed.data.password, user?.passwordHash ?? TIMING_DECOY_HASH);
        if (!user || !user.passwordHash || !valid) throw new InvalidCredentials();
        await db.user.update({ where: { id: user.id }, data: { lastSignInAt: new Date() } });
        return { id: user.id, email: user.email, name: user.name };
      },
    }),
  ];
  if (config.auth.github) list.push(GitHub({ clientId: config.auth.github.id, clientSecret: config.auth.github.secret }));
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

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  ...authConfig,
  secret: getConfig().auth.secret,
  providers: providers(),
  logger: {
    // A wrong password is an expected outcome, not a server error worth a log line.
    error(error) {
      if (error.name === "CredentialsSignin" || error instanceof CredentialsSignin) return;
      console.error(`[auth] ${error.name}: ${error.message}`);
    },
  },
  callbacks: {
    ...authConfig.callbacks,
    // Every server-side read of a session (pages, route handlers, actions,
    // /api/auth/session) passes here: a signed-out session's token is refused
    // even when a copy of its cookie survives.
    async jwt(params) {
      const token = authConfig.callbacks.jwt(params);
      if (params.user) return token;
      const claims = sessionClaims(token);
      if (!claims || (await isSignedOut(getDb(), claims))) return null;
      return token;
    },
    // OAuth identities map onto users by email; first sign-in creates the user
    // with the configured default role, and links the provider account.
    async signIn({ user, account }) {
      if (!account || account.type === "credentials") return true;
      const email = user.email?.toLowerCase();
      if (!email) return false;
      const db = getDb();
      const existing =
        (await db.user.findUnique({ where: { email } })) ??
        (await db.user.create({ data: { email, name: user.name ?? email, role: getConfig().auth.oauthDefaultRole } }));
      await db.account.upsert({
        where: { provider_providerAccountId: { provider: account.provider, providerAccountId: account.providerAccountId } },
        create: { provider: account.provider, providerAccountId: account.providerAccountId, userId: existing.id },
        update: {},
      });
      await db.user.update({ where: { id: existing.id }, data: { lastSignInAt: new Date() } });
      user.id = existing.id;
      return true;
    },
  },
}));
