import "server-only";
import { signIn } from "./auth";

/**
 * After a password change every session that began before it is refused, this
 * one included; signing in again with the new password gives this browser a
 * fresh session cookie (set through next/headers, from a server action or a
 * route handler alike), so only the other sessions end.
 */
export async function continueSessionAfterPasswordChange(email: string, newPassword: string): Promise<void> {
  await signIn("credentials", { email, password: newPassword, redirect: false });
}
