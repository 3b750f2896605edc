// Runs before every request: no session → pages redirect to sign-in and API
// calls get 401 JSON. Roles are checked by each page, route and action
// (lib/auth/server/session.ts); this layer only makes "signed in" the default.
// It also gives every response its security headers, and every page a fresh
// CSP nonce that Next reads from the request's own CSP header and stamps on its scripts.
import NextAuth, { type NextAuthRequest } from "next-auth";
import { NextResponse, type NextFetchEvent, type NextRequest } from "next/server";
import { authConfig, SIGN_IN_PATH, USE_SECURE_COOKIES } from "./lib/auth/auth-config";
import { ATTACHMENT_CONTENT_SECURITY_POLICY, contentSecurityPolicy, createNonce, HSTS_HEADER, SECURITY_HEADERS } from "./lib/http/security-headers";
import { dropSessionCookieIssues } from "./lib/auth/session-cookie";

const { auth } = NextAuth(authConfig);

// /api/slack/interactions: Slack's button clicks, authenticated by Slack's request signature (lib/approval-channels/server/slack-interaction.ts).
const PUBLIC_PATHS = [SIGN_IN_PATH, "/api/health", "/api/slack/interactions"];
// /api/hooks/: inbound webhook deliveries, authenticated by their HMAC signature (lib/webhooks/server/receive.ts).
const PUBLIC_PREFIXES = ["/api/auth/", "/api/hooks/"];

function isPublic(pathname: string): boolean {
  return PUBLIC_PATHS.includes(pathname) || PUBLIC_PREFIXES.some((p) => pathname.startsWith(p));
}

const DEV = process.env.NODE_ENV === "development";

/** Passes the request on with its nonce and CSP in the request headers, where Next's renderer looks for them. */
function passWithNonce(request: NextRequest): NextResponse {
  const nonce = createNonce();
  const csp = contentSecurityPolicy(nonce, { dev: DEV });
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce); // for any <Script> of ours: headers().get("x-nonce")
  headers.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

/**
 * A program's API call: `Authorization: Bearer zap_…` on an /api path. This layer
 * has no database to check the key; the route does, first thing (every /api
 * route but the public ones is built on apiRoute, lib/http/server/api-route.ts,
 * which answers 401 to a bad key), so the call passes on to it.
 */
function isApiKeyCall(request: Request, pathname: string): boolean {
  return pathname.startsWith("/api/") && /^Bearer[ \t]+zap_/i.test(request.headers.get("authorization") ?? "");
}

/** Public paths pass; without a session (or an API key, checked by the route), API calls get 401 JSON and pages redirect to sign-in. */
function gateRequest(request: NextAuthRequest, _event: NextFetchEvent): NextResponse {
  const { pathname, search } = request.nextUrl;
  const caller = Boolean(request.auth?.user) || isApiKeyCall(request, pathname);
  // A stored image is no page: the proxy's headers win over the route's, so its sandboxing policy is set here.
  if (caller && pathname.startsWith("/api/attachments/")) {
    const response = NextResponse.next();
    response.headers.set("Content-Security-Policy", ATTACHMENT_CONTENT_SECURITY_POLICY);
    return response;
  }
  if (isPublic(pathname) || caller) return passWithNonce(request);
  if (pathname.startsWith("/api/")) {
    return NextResponse.json({ error: { code: "unauthenticated", message: "Sign in to continue" } }, { status: 401 });
  }
  const signIn = new URL(SIGN_IN_PATH, request.nextUrl.origin);
  if (pathname !== "/") signIn.searchParams.set("callbackUrl", `${pathname}${search}`);
  return NextResponse.redirect(signIn);
}

const gate = auth(gateRequest);

export async function proxy(request: NextRequest, event: NextFetchEvent): Promise<Response> {
  const response = (await gate(request, event)) ?? NextResponse.next();
  // Auth.js re-issues the session cookie on every response it wraps (a rolling
  // session). A response to a request still in flight when the user signs out
  // (a link prefetch, another tab) would then put the cookie back after sign-out
  // removed it. So only sign-in issues the cookie (valid 12 h from then) and only
  // sign-out or an invalid token removes it; the proxy may pass on removals only.
  dropSessionCookieIssues(response.headers);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
  // A redirect or a 401 has no page to run: it gets a policy that allows nothing.
  if (!response.headers.has("Content-Security-Policy")) response.headers.set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
  // Over HTTPS in production only (the cookies' rule too): HSTS on a plain-HTTP deployment would lock users out.
  if (USE_SECURE_COOKIES) response.headers.set("Strict-Transport-Security", HSTS_HEADER);
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
