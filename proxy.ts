// Runs before every request: no session → pages redirect to sign-in and API
// calls get 401 JSON. Roles are checked by each page, route and action
// (lib/auth/server/session.ts); this layer only makes "signed in" the default.
import NextAuth from "next-auth";
import { NextResponse } from "next/server";
import { authConfig, SIGN_IN_PATH } from "./lib/auth/auth-config";

const { auth } = NextAuth(authConfig);

const PUBLIC_PATHS = [SIGN_IN_PATH, "/api/health"];
const PUBLIC_PREFIXES = ["/api/auth/"];

function isPublic(pathname: string): boolean {
  return PUBLIC_PATHS.includes(pathname) || PUBLIC_PREFIXES.some((p) => pathname.startsWith(p));
}

export const proxy = auth((request) => {
  const { pathname, search } = request.nextUrl;
  if (isPublic(pathname) || request.auth?.user) return NextResponse.next();
  if (pathname.startsWith("/api/")) {
    return NextResponse.json({ error: { code: "unauthenticated", message: "Sign in to continue" } }, { status: 401 });
  }
  const signIn = new URL(SIGN_IN_PATH, request.nextUrl.origin);
  if (pathname !== "/") signIn.searchParams.set("callbackUrl", `${pathname}${search}`);
  return NextResponse.redirect(signIn);
});

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
