import { z } from "zod";
import { ROLES } from "../access/roles";

const userId = z.string().min(1, "userId is required").max(64);
const role = z.enum(ROLES, { error: `role must be one of ${ROLES.join(", ")}` });

/** The admin page's change-role action; `PATCH /api/users/:id/role` takes the user from its path. */
export const changeRoleSchema = z.strictObject({ userId, role });
export type ChangeRoleInput = z.infer<typeof changeRoleSchema>;

/**
 * A new account: with a one-time password (shown once, to be replaced at first
 * sign-in), or an invitation without password for someone who signs in through
 * GitHub or Google with that (verified) email.
 */
export const createUserSchema = z.strictObject({
  email: z
    .email("email must be an email address")
    .max(320)
    .transform((e) => e.toLowerCase()),
  name: z.string().trim().min(1, "name is required").max(200),
  role,
  kind: z.enum(["password", "invite"], { error: "kind must be password or invite" }).default("password"),
});
export type CreateUserInput = z.input<typeof createUserSchema>;

/** The admin page's disable/enable action; `POST /api/users/:id/disable|enable` take the user and the state from their path. */
export const setUserDisabledSchema = z.strictObject({ userId, disabled: z.boolean({ error: "disabled must be true or false" }) });
export type SetUserDisabledInput = z.infer<typeof setUserDisabledSchema>;

/** The admin page's reset action and `POST /api/users/:id/password-reset`. */
export const resetPasswordSchema = z.strictObject({ userId });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** The admin page's "lift the sign-in block" action and `DELETE /api/users/:id/sign-in-block`. */
export const liftSignInBlockSchema = z.strictObject({ userId });
export type LiftSignInBlockInput = z.infer<typeof liftSignInBlockSchema>;

/** A user changes their own password; the rules on the new one (length, not the email) are checked on the server with the email at hand. */
export const changeOwnPasswordSchema = z.strictObject({
  currentPassword: z.string().min(1, "Enter your current password").max(200),
  newPassword: z.string().min(1, "Enter a new password").max(200, "The new password must be at most 200 characters long"),
});
export type ChangeOwnPasswordInput = z.infer<typeof changeOwnPasswordSchema>;

/** A user as the admin page and the users API show it (never the password hash). */
export interface UserSummary {
  id: string;
  email: string;
  name: string;
  role: (typeof ROLES)[number];
  /** active; disabled by an admin; or invited (no password: signs in through an OAuth provider). */
  status: "active" | "disabled" | "invited";
  /** A one-time password was issued and not yet replaced. */
  mustChangePassword: boolean;
  /** A seeded demo account (production mode refuses to start while one is enabled). */
  isDemo: boolean;
  lastSignInAt: string | null;
  createdAt: string;
  /**
   * Sign-in blocks on the account (null: none): the addresses refused for it
   * after ten wrong passwords from each, and until when the account is on guard
   * (only addresses without recent failures may try). An admin can lift them.
   */
  signInBlock: { addresses: { address: string; until: string }[]; guardedUntil: string | null } | null;
}

/** A new account, or a reset one, with the one-time password to hand over (shown once, never stored in clear). */
export interface IssuedPassword {
  user: UserSummary;
  oneTimePassword: string | null;
}

/** An admin's password reset: the new one-time password, and the user's personal API keys it revoked. */
export interface PasswordReset extends IssuedPassword {
  oneTimePassword: string;
  revokedApiKeys: { id: string; name: string; prefix: string }[];
}
