// Auth.js endpoints (sign-in callbacks, session, CSRF). Password sign-ins pass
// the throttle first: a blocked account or address gets 429 with Retry-After.
import type { NextRequest } from "next/server";
import { handlers } from "@/lib/auth/server/auth";
import { refuseThrottledSignIn } from "@/lib/auth/server/credentials-gate";

export const { GET } = handlers;

export async function POST(request: NextRequest): Promise<Response> {
  return (await refuseThrottledSignIn(request)) ?? handlers.POST(request);
}
