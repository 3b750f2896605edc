import { describe, expect, it } from "vitest";
import { decideOAuthSignIn, profileEmailVerified, type OAuthSignInFacts } from "./oauth";

const base: OAuthSignInFacts = {
  email: "Ana@Example.com",
  emailVerified: true,
  allowedDomains: ["example.com"],
  linkedUser: null,
  userWithEmail: null,
};

describe("decideOAuthSignIn", () => {
  it("creates a user for a verified email in an allowed domain", () => {
    expect(decideOAuthSignIn(base)).toEqual({ kind: "create", email: "ana@example.com" });
  });

  it("refuses an email whose domain is not allowed and that nobody invited", () => {
    expect(decideOAuthSignIn({ ...base, email: "mallory@evil.test" })).toEqual({ kind: "refuse", reason: "not_invited" });
    expect(decideOAuthSignIn({ ...base, allowedDomains: [] })).toEqual({ kind: "refuse", reason: "not_invited" });
  });

  it("does not let a look-alike domain through (suffix match is not enough)", () => {
    expect(decideOAuthSignIn({ ...base, email: "ana@notexample.com" })).toEqual({ kind: "refuse", reason: "not_invited" });
    expect(decideOAuthSignIn({ ...base, email: "ana@example.com.evil.test" })).toEqual({ kind: "refuse", reason: "not_invited" });
  });

  it("refuses an unverified or missing email, even for an invited account", () => {
    const invited = { id: "u1", disabled: false, hasPassword: false };
    expect(decideOAuthSignIn({ ...base, emailVerified: false, userWithEmail: invited })).toEqual({ kind: "refuse", reason: "no_verified_email" });
    expect(decideOAuthSignIn({ ...base, email: null })).toEqual({ kind: "refuse", reason: "no_verified_email" });
  });

  it("links an invited account without a password on its first verified sign-in, whatever the domain", () => {
    const invited = { id: "u1", disabled: false, hasPassword: false };
    expect(decideOAuthSignIn({ ...base, allowedDomains: [], userWithEmail: invited })).toEqual({ kind: "link", userId: "u1" });
  });

  it("never links onto an account that has a password (no takeover by a provider identity with the same email)", () => {
    const admin = { id: "admin", disabled: false, hasPassword: true };
    expect(decideOAuthSignIn({ ...base, userWithEmail: admin })).toEqual({ kind: "refuse", reason: "password_account" });
  });

  it("refuses disabled accounts, linked or not", () => {
    expect(decideOAuthSignIn({ ...base, linkedUser: { id: "u1", disabled: true } })).toEqual({ kind: "refuse", reason: "disabled" });
    expect(decideOAuthSignIn({ ...base, userWithEmail: { id: "u1", disabled: true, hasPassword: false } })).toEqual({ kind: "refuse", reason: "disabled" });
  });

  it("signs in an identity linked before", () => {
    expect(decideOAuthSignIn({ ...base, emailVerified: false, linkedUser: { id: "u1", disabled: false } })).toEqual({ kind: "sign_in", userId: "u1" });
  });
});

describe("profileEmailVerified", () => {
  it("is true only for a literal true flag", () => {
    expect(profileEmailVerified({ email_verified: true })).toBe(true);
    expect(profileEmailVerified({ email_verified: "true" })).toBe(false);
    expect(profileEmailVerified({})).toBe(false);
    expect(profileEmailVerified(null)).toBe(false);
  });
});
