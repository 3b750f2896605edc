"use server";
import { headers } from "next/headers";
import { AuthError } from "next-auth";
import { z } from "zod";
import { signIn, SignInThrottled } from "../auth/server/auth";
import { clientIp, normalizeAttemptEmail, signInBlockedFor } from "../auth/server/throttle";
import { getDb } from "../db/server/db";
import { getConfig } from "../config/server/config";

export interface SignInState {
  error?: string;
}

const formSchema = z.object({
  email: z.string().trim().min(1, "Enter your email").max(320),
  password: z.string().min(1, "Enter your password").max(200),
  callbackUrl: z.string().optional(),
});

/** Only same-site paths may be redirected to after sign-in. */
function safeRedirect(target: string | undefined): string {
  return target && target.startsWith("/") && !target.startsWith("//") ? target : "/";
}

function tooManyAttempts(seconds: number): SignInState {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return { error: `Too many attempts; try again in ${minutes} minute${minutes === 1 ? "" : "s"}` };
}

/** Signs in with email and password; on success Auth.js redirects (by throwing). */
export async function signInWithPassword(_previous: SignInState, form: FormData): Promise<SignInState> {
  const parsed = formSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Check the form" };
  // The throttle is asked first, so a blocked attempt is answered without hashing anything (authorize counts the attempt itself).
  const attempt = { email: normalizeAttemptEmail(parsed.data.email), ip: clientIp(await headers(), getConfig().auth.trustProxy) };
  const wait = await signInBlockedFor(getDb(), attempt);
  if (wait > 0) return tooManyAttempts(wait);
  try {
    await signIn("credentials", {
      email: parsed.data.email,
      password: parsed.data.password,
      redirectTo: safeRedirect(parsed.data.callbackUrl),
    });
    return {};
  } catch (error) {
    if (error instanceof SignInThrottled) return tooManyAttempts(error.retryAfterSeconds);
    if (error instanceof AuthError) {
      return { error: error.type === "CredentialsSignin" ? "Wrong email or password" : "Sign-in failed; try again" };
    }
    throw error; // the success redirect
  }
}

/** Starts an OAuth sign-in with a provider the environment switched on. */
export async function signInWithProvider(form: FormData): Promise<void> {
  const provider = z.enum(["github", "google"]).safeParse(form.get("provider"));
  if (!provider.success) return;
  await signIn(provider.data, { redirectTo: safeRedirect(String(form.get("callbackUrl") ?? "/")) });
}
