// Issue 23 §4: the password sign-in does not tell which emails exist by how
// long it takes. An attacker posts wrong passwords for an unknown email, an
// invited account (no password yet), an argon2id account and a legacy bcrypt
// account through the real Auth.js route: each attempt runs the same hashing
// work (one argon2id verify at the current parameters and one bcrypt compare
// at the legacy cost). Counted through spies on the real hashers, not timed
// (timing thresholds would be flaky).
import * as argon2 from "@node-rs/argon2";
import bcrypt from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { freshSqlite, type TestDatabase } from "../../../scripts/test-support/databases";
import { hashPassword } from "../passwords";

vi.mock("bcryptjs", async (importOriginal) => {
  const actual = (await importOriginal<{ default: typeof import("bcryptjs") }>()).default;
  return { default: { ...actual, compare: vi.fn(actual.compare) } };
});
vi.mock("@node-rs/argon2", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@node-rs/argon2")>();
  return { ...actual, verify: vi.fn(actual.verify) };
});

const ORIGIN = "http://127.0.0.1:3000";
const scope = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({
  headers: async () => scope.headers,
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, has: () => false, delete: () => undefined }),
}));

let database: TestDatabase;
let db: Db;
let authRoute: typeof import("@/app/api/auth/[...nextauth]/route");

beforeAll(async () => {
  database = await freshSqlite();
  await applyMigrations(database.url);
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET = "security-test-secret-0123456789-abcdefghij";
  process.env.ZAP_TRUST_PROXY = "true";
  db = createDb(database.url);
  await db.user.createMany({
    data: [
      { email: "modern@example.com", name: "Modern", role: "viewer", passwordHash: await hashPassword("the modern password") },
      { email: "legacy@example.com", name: "Legacy", role: "viewer", passwordHash: await bcrypt.hash("the legacy password", 10) },
      { email: "invited@example.com", name: "Invited", role: "viewer", passwordHash: null },
    ],
  });
  authRoute = await import("@/app/api/auth/[...nextauth]/route");
});

afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

/** One wrong-password attempt through the credentials endpoint, from its own address, with its own CSRF cookie. */
async function attempt(email: string, ip: string): Promise<Response> {
  const headers = (cookie?: string) => new Headers({ host: "127.0.0.1:3000", "x-forwarded-for": ip, ...(cookie ? { cookie } : {}) });
  const csrfResponse = await authRoute.GET(new NextRequest(`${ORIGIN}/api/auth/csrf`, { headers: headers() }));
  const cookie = csrfResponse.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
  const body = new URLSearchParams({ email, password: "a wrong password guess", csrfToken, callbackUrl: `${ORIGIN}/` });
  scope.headers = headers(cookie);
  return authRoute.POST(new NextRequest(`${ORIGIN}/api/auth/callback/credentials`, { method: "POST", body, headers: new Headers({ ...Object.fromEntries(headers(cookie)), "content-type": "application/x-www-form-urlencoded" }) }));
}

/** The hashing one attempt did: each hasher's calls, by the cost parameters of the hash it was given. */
async function hashingFor(email: string, ip: string): Promise<{ status: number; argon2: string[]; bcrypt: string[] }> {
  const verify = vi.mocked(argon2.verify);
  const compare = vi.mocked(bcrypt.compare);
  verify.mockClear();
  compare.mockClear();
  const response = await attempt(email, ip);
  return {
    status: response.status,
    argon2: verify.mock.calls.map(([hash]) => String(hash).split("$").slice(0, 4).join("$")),
    bcrypt: compare.mock.calls.map(([, hash]) => `cost ${bcrypt.getRounds(String(hash))}`),
  };
}

describe("password sign-in and account enumeration by timing", () => {
  it("an unknown email, an invited account, an argon2id account and a legacy bcrypt account: the same hashing for a wrong password", async () => {
    const same = { argon2: ["$argon2id$v=19$m=19456,t=2,p=1"], bcrypt: ["cost 10"] };
    const cases = [
      ["nobody@example.com", "198.51.100.21"],
      ["invited@example.com", "198.51.100.22"],
      ["modern@example.com", "198.51.100.23"],
      ["legacy@example.com", "198.51.100.24"],
    ] as const;
    for (const [email, ip] of cases) {
      const work = await hashingFor(email, ip);
      expect(work.status, `${email}: refused like any wrong password`).toBe(302);
      expect({ argon2: work.argon2, bcrypt: work.bcrypt }, email).toEqual(same);
    }
    const reasons = (await db.auditEvent.findMany({ where: { action: "auth.sign_in_failed" }, orderBy: { seq: "asc" } })).map((r) => JSON.parse(r.details).reason);
    expect(reasons, "the audit rows still say which case each was").toEqual(["unknown_email", "no_password", "wrong_password", "wrong_password"]);
  });
});
