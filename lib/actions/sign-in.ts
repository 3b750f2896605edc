"use server";
import { AuthError } from "next-auth";
import { z } from "zod";
import { signIn } from "../auth/server/auth";

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

/** Signs in with email and password; on success Auth.js redirects (by throwing). */
export async function signInWithPassword(_previous: SignInState, form: FormData): Promise<SignInState> {
  const parsed = formSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Check the form" };
  try {
    await signIn("credentials", {
      email: parsed.data.email,
      password: parsed.data.password,
      redirectTo: safeRedirect(parsed.data.callbackUrl),
    });
    return {};
  } catch (error) {
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
