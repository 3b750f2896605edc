import * as argon2 from "@node-rs/argon2";
import bcrypt from "bcryptjs";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { hashPassword, needsRehash, oneTimePassword, passwordProblem, verifyPassword } from "./passwords";

// The real hashers, watched: which hash each check compares against is what
// the timing test below reads (no clocks: timing thresholds would be flaky).
vi.mock("bcryptjs", async (importOriginal) => {
  const actual = (await importOriginal<{ default: typeof import("bcryptjs") }>()).default;
  return { default: { ...actual, compare: vi.fn(actual.compare) } };
});
vi.mock("@node-rs/argon2", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@node-rs/argon2")>();
  return { ...actual, verify: vi.fn(actual.verify) };
});

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

describe("a check does not tell which emails exist (or still have a legacy hash) by its time", () => {
  const compare = vi.mocked(bcrypt.compare);
  const verify = vi.mocked(argon2.verify);
  beforeEach(() => {
    compare.mockClear();
    verify.mockClear();
  });

  /** The work one check did: each hasher's calls, by the cost parameters of the hash it was given. */
  async function workFor(stored: string | null | undefined, password = "a wrong password guess"): Promise<{ matched: boolean; argon2: string[]; bcrypt: string[] }> {
    compare.mockClear();
    verify.mockClear();
    const matched = await verifyPassword(password, stored);
    return {
      matched,
      argon2: verify.mock.calls.map(([hash]) => String(hash).split("$").slice(0, 4).join("$")),
      bcrypt: compare.mock.calls.map(([, hash]) => `${String(hash).slice(0, 4)} cost ${bcrypt.getRounds(String(hash))}`),
    };
  }

  it("an unknown email or an account without a password still runs both comparisons, at real hashes' costs, and never matches", async () => {
    for (const stored of [null, undefined, ""]) {
      const work = await workFor(stored);
      expect(work.matched).toBe(false);
      expect(work.argon2, "one argon2id verify at the current parameters").toEqual(["$argon2id$v=19$m=19456,t=2,p=1"]);
      expect(work.bcrypt, "one bcrypt compare at the cost legacy hashes were made with").toEqual(["$2b$ cost 10"]);
    }
  });

  it("unknown email, argon2id account and legacy bcrypt account do the same work for a wrong password", async () => {
    const modern = await hashPassword("the real password");
    const legacy = await bcrypt.hash("the real password", 10);
    const unknown = await workFor(null);
    const withModern = await workFor(modern);
    const withLegacy = await workFor(legacy);
    const shape = ({ argon2: a, bcrypt: b }: { argon2: string[]; bcrypt: string[] }) => ({ argon2: a, bcrypt: b.map((x) => x.replace(/^\$2[aby]\$/, "$2?$")) });
    expect(shape(withModern)).toEqual(shape(unknown));
    expect(shape(withLegacy)).toEqual(shape(unknown));
    // Each account's own hash is the one its algorithm was given; the other one got a decoy.
    expect(verify.mock.calls.map(([hash]) => hash)).not.toContain(modern);
    await workFor(modern);
    expect(verify.mock.calls.map(([hash]) => hash)).toEqual([modern]);
    expect(compare.mock.calls.map(([, hash]) => hash)).not.toContain(legacy);
    await workFor(legacy);
    expect(compare.mock.calls.map(([, hash]) => hash)).toEqual([legacy]);
    // And the right password still matches either way (the decoy's answer is never taken).
    expect((await workFor(modern, "the real password")).matched).toBe(true);
    expect((await workFor(legacy, "the real password")).matched).toBe(true);
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
