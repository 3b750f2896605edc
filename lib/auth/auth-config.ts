// The part of the Auth.js configuration that needs no database: shared by the
// request proxy (which only reads the session cookie) and the full server config.
import type { NextAuthConfig } from "next-auth";

export const SIGN_IN_PATH = "/sign-in";

export const authConfig = {
  pages: { signIn: SIGN_IN_PATH },
  session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
  trustHost: true,
  providers: [],
  callbacks: {
    jwt({ token, user }) {
      // `user` is present only at sign-in; afterwards the token carries the id.
      if (user?.id) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      return session;
    },
  },
} satisfies NextAuthConfig;
