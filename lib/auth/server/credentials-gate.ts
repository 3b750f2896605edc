import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { clientIp, normalizeAttemptEmail, signInBlockedFor } from "./throttle";
import { getDb } from "../../db/server/db";
import { getConfig } from "../../config/server/config";

/** The email a credentials POST carries (form or JSON body), read from a copy so Auth.js still gets the body. */
async function emailOf(request: NextRequest): Promise<unknown> {
  const copy = request.clone();
  try {
    if ((request.headers.get("content-type") ?? "").includes("application/json")) {
      const body: unknown = await copy.json();
      return typeof body === "object" && body !== null && "email" in body ? body.email : null;
    }
    return (await copy.formData()).get("email");
  } catch {
    return null; // an unreadable body: Auth.js refuses it; the address is still checked
  }
}

/**
 * In front of Auth.js's `POST /api/auth/callback/credentials`: an attempt the
 * throttle would refuse (this address blocked for this account, the address
 * blocked, or the account on guard and this address has failed) gets 429 with
 * Retry-After, before Auth.js (and argon2) runs. This reads only; the attempt
 * is counted (atomically, before the hash) in authorize. Any other Auth.js
 * request passes (null).
 */
export async function refuseThrottledSignIn(request: NextRequest): Promise<Response | null> {
  if (request.method !== "POST" || !request.nextUrl.pathname.endsWith("/callback/credentials")) return null;
  const attempt = { email: normalizeAttemptEmail(await emailOf(request)), ip: clientIp(request.headers, getConfig().auth.trustProxy) };
  const wait = await signInBlockedFor(getDb(), attempt);
  if (wait === 0) return null;
  const minutes = Math.max(1, Math.ceil(wait / 60));
  return NextResponse.json(
    { error: { code: "rate_limited", message: `Too many attempts; try again in ${minutes} minute${minutes === 1 ? "" : "s"}` } },
    { status: 429, headers: { "Retry-After": String(wait) } },
  );
}
