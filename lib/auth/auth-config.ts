// The part of the Auth.js configuration that needs no database: shared by the
// request proxy (which only reads the session cookie) and the full server config.
import type { NextAuthConfig } from "next-auth";

export const SIGN_IN_PATH = "/sign-in";

/** How long a session lasts from sign-in (it is not extended by use: see proxy.ts). */
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

declare module "next-auth" {
  interface Session {
    /** Identifies this sign-in, so that signing out can end it on the server (lib/auth/server/sessions.ts). */
    sessionId?: string;
    /** When this sign-in happened (ms since the epoch): sessions that began before a password change or reset are refused. */
    signedInAt?: number;
  }
}

/**
 * Production over HTTPS: cookies are `Secure` and the session cookie takes the
 * `__Host-` prefix (no Domain, Path=/, HTTPS only), so neither a sibling
 * subdomain nor plain HTTP can plant or read it. Read from the environment
 * directly: the request proxy shares this file and does not load the app config.
 */
export const USE_SECURE_COOKIES = process.env.NODE_ENV === "production" && (process.env.AUTH_URL ?? "").startsWith("https://");

const SESSION_COOKIE_NAME = USE_SECURE_COOKIES ? "__Host-authjs.session-token" : "authjs.session-token";

export const authConfig = {
  pages: { signIn: SIGN_IN_PATH },
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  trustHost: true,
  useSecureCookies: USE_SECURE_COOKIES,
  cookies: {
    sessionToken: { name: SESSION_COOKIE_NAME, options: { httpOnly: true, sameSite: "lax", path: "/", secure: USE_SECURE_COOKIES } },
  },
  providers: [],
  callbacks: {
    jwt({ token, user }) {
      // `user` is present only at sign-in, when a session begins: it gets its own
      // id and start time, which the token then carries until it expires.
      if (user?.id) {
        token.sub = user.id;
        token.sid = crypto.randomUUID();
        token.signedInAt = Date.now();
      }
      return token;
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      if (typeof token.sid === "string") session.sessionId = token.sid;
      if (typeof token.signedInAt === "number") session.signedInAt = token.signedInAt;
      return session;
    },
  },
} satisfies NextAuthConfig;
