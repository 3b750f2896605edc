import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, oneTimePassword, passwordProblem, verifyPassword } from "./passwords";

describe("password hashing", () => {
  it("hashes with argon2id at OWASP's parameters (19 MiB, 2 passes, 1 lane), salted", async () => {
    const first = await hashPassword("correct horse battery");
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hashPassword("correct horse battery"), "a fresh salt each time").not.toBe(first);
    expect(await verifyPassword("correct horse battery", first)).toBe(true);
    expect(await verifyPassword("correct horse batterY", first)).toBe(false);
    expect(needsRehash(first)).toBe(false);
  });

  it("still verifies a legacy bcrypt hash, and asks for it to be replaced", async () => {
    const legacy = await bcrypt.hash("admin-demo", 10);
    expect(await verifyPassword("admin-demo", legacy)).toBe(true);
    expect(await verifyPassword("admin-dem0", legacy)).toBe(false);
    expect(needsRehash(legacy)).toBe(true);
  });

  it("asks to rehash argon2 hashes weaker than the current parameters", () => {
    expect(needsRehash("$argon2id$v=19$m=4096,t=3,p=1$c2FsdHNhbHQ$aGFzaGhhc2g")).toBe(true);
    expect(needsRehash("$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g")).toBe(true);
  });

  it("never matches a malformed or empty stored hash", async () => {
    expect(await verifyPassword("x", "")).toBe(false);
    expect(await verifyPassword("x", "plain-text-password")).toBe(false);
    expect(await verifyPassword("x", "$argon2id$garbage")).toBe(false);
  });
});

describe("passwordProblem", () => {
  it("wants 12 to 200 characters and not the email", () => {
    expect(passwordProblem("short-pass1", "a@b.c")).toMatch(/at least 12/);
    expect(passwordProblem("x".repeat(201), "a@b.c")).toMatch(/at most 200/);
    expect(passwordProblem("Someone@Example.com", "someone@example.com")).toMatch(/email/);
    expect(passwordProblem("a long enough passphrase", "a@b.c")).toBeNull();
  });
});

describe("oneTimePassword", () => {
  it("is long, random and readable", () => {
    const a = oneTimePassword();
    expect(a).toMatch(/^[a-z2-9]{6}(-[a-z2-9]{6}){3}$/);
    expect(oneTimePassword()).not.toBe(a);
  });
});
