// Who may sign in through an OAuth provider, decided by one pure function so
// that every rule is unit-tested without a real provider.

/** What the database says about the email and the provider identity signing in. */
export interface OAuthSignInFacts {
  /** The email the provider reports, if any. */
  email: string | null | undefined;
  /** Whether the provider vouches that the person controls that email. */
  emailVerified: boolean;
  /** Email domains open to OAuth sign-in (AUTH_OAUTH_ALLOWED_DOMAINS, lowercase). */
  allowedDomains: readonly string[];
  /** The user this provider identity is already linked to, if any. */
  linkedUser: { id: string; disabled: boolean } | null;
  /** The user with that email, if any. */
  userWithEmail: { id: string; disabled: boolean; hasPassword: boolean } | null;
}

export type OAuthRefusal = "no_verified_email" | "not_invited" | "password_account" | "disabled";

export type OAuthDecision =
  | { kind: "sign_in"; userId: string }
  | { kind: "link"; userId: string }
  | { kind: "create"; email: string }
  | { kind: "refuse"; reason: OAuthRefusal };

/** The sentence the sign-in page shows for each refusal. */
export const OAUTH_REFUSAL_MESSAGES: Record<OAuthRefusal, string> = {
  no_verified_email: "Your provider did not confirm a verified email address, so you cannot sign in with it.",
  not_invited: "This email is not invited to Zap Studio; ask an admin to invite you.",
  password_account: "This email belongs to an account that signs in with a password; sign in with your password instead.",
  disabled: "Sign-in failed; ask an admin about your account.",
};

export function isOAuthRefusal(value: unknown): value is OAuthRefusal {
  return typeof value === "string" && Object.hasOwn(OAUTH_REFUSAL_MESSAGES, value);
}

/**
 * Decides an OAuth sign-in: an identity already linked signs in (unless its user
 * is disabled); otherwise the email must be verified, and it either belongs to an
 * invited account without a password (linked now), or its domain is allowed (a
 * user is created). An account with a password is never taken over by linking.
 */
export function decideOAuthSignIn(facts: OAuthSignInFacts): OAuthDecision {
  if (facts.linkedUser) {
    return facts.linkedUser.disabled ? { kind: "refuse", reason: "disabled" } : { kind: "sign_in", userId: facts.linkedUser.id };
  }
  const email = facts.email?.trim().toLowerCase();
  if (!email || !facts.emailVerified) return { kind: "refuse", reason: "no_verified_email" };
  const existing = facts.userWithEmail;
  if (existing) {
    if (existing.disabled) return { kind: "refuse", reason: "disabled" };
    if (existing.hasPassword) return { kind: "refuse", reason: "password_account" };
    return { kind: "link", userId: existing.id };
  }
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (facts.allowedDomains.includes(domain)) return { kind: "create", email };
  return { kind: "refuse", reason: "not_invited" };
}

/** Whether the provider's profile vouches for the email: Google's `email_verified`, or the flag our GitHub user-info request sets. */
export function profileEmailVerified(profile: unknown): boolean {
  return typeof profile === "object" && profile !== null && "email_verified" in profile && profile.email_verified === true;
}
