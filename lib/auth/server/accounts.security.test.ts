// Issue 14 §4, as an attacker would try it, against the real Auth.js route
// handler, the real API routes and a real (SQLite) database: guessing passwords
// is throttled with 429 + Retry-After before any hash (per account and address,
// counted before the hash, so neither a flood nor a lockout works), a disabled
// user's session ends at once and stays ended when they are enabled again, a password reset ends the other sessions, a builder cannot
// manage users, and production mode refuses enabled demo accounts.
import bcrypt from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { createDb, type Db } from "../../db/prisma";
import type { TestDatabase } from "../../../scripts/test-support/databases";
import { seededSqlite } from "../../../scripts/test-support/seeded-sqlite";
import { parseEnv } from "../../config/env";

const ORIGIN = "http://127.0.0.1:3000";

// Route handlers read the request's headers through next/headers (Auth.js's
// auth() and sign-in); outside Next there is no request scope, so each call
// below names the headers it runs with.
const scope = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({
  headers: async () => scope.headers,
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, has: () => false, delete: () => undefined }),
}));

let database: TestDatabase;
let db: Db;
let authRoute: typeof import("@/app/api/auth/[...nextauth]/route");
let meRoute: typeof import("@/app/api/me/route");
let usersRoute: typeof import("@/app/api/users/route");
let passwordRoute: typeof import("@/app/api/me/password/route");
let users: typeof import("../../users/server/users");

beforeAll(async () => {
  // Migrated and demo-seeded: a copy of the global setup's template (no Prisma CLI run, no bcrypt hashes here).
  database = await seededSqlite();
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET = "security-test-secret-0123456789-abcdefghij";
  // Each test speaks from its own address, so address limits of one story do not leak into another.
  process.env.ZAP_TRUST_PROXY = "true";
  db = createDb(database.url);
  authRoute = await import("@/app/api/auth/[...nextauth]/route");
  meRoute = await import("@/app/api/me/route");
  usersRoute = await import("@/app/api/users/route");
  passwordRoute = await import("@/app/api/me/password/route");
  users = await import("../../users/server/users");
});

afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

/** A browser: its cookies and its address. */
class Client {
  private jar = new Map<string, string>();
  constructor(readonly ip: string) {}

  headers(extra: Record<string, string> = {}): Headers {
    const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    return new Headers({ host: "127.0.0.1:3000", "x-forwarded-for": `203.0.113.9, ${this.ip}`, ...(cookie ? { cookie } : {}), ...extra });
  }

  keep(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      if (value && !/max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.jar.set(name, value);
      else this.jar.delete(name);
    }
    return response;
  }

  hasSession(): boolean {
    return [...this.jar.keys()].some((k) => k.includes("session-token"));
  }

  async csrf(): Promise<string> {
    const response = this.keep(await authRoute.GET(new NextRequest(`${ORIGIN}/api/auth/csrf`, { headers: this.headers() })));
    return ((await response.json()) as { csrfToken: string }).csrfToken;
  }

  /** POST /api/auth/callback/credentials, as the sign-in form of another client or a script would. */
  async signIn(email: string, password: string): Promise<Response> {
    const csrfToken = await this.csrf();
    const body = new URLSearchParams({ email, password, csrfToken, callbackUrl: `${ORIGIN}/` });
    const request = new NextRequest(`${ORIGIN}/api/auth/callback/credentials`, {
      method: "POST",
      body,
      headers: this.headers({ "content-type": "application/x-www-form-urlencoded" }),
    });
    scope.headers = this.headers();
    return this.keep(await authRoute.POST(request));
  }

  /** GET /api/me with this client's cookies. */
  async me(): Promise<number> {
    scope.headers = this.headers();
    return (await meRoute.GET(new NextRequest(`${ORIGIN}/api/me`, { headers: this.headers() }), { params: Promise.resolve({}) })).status;
  }
}

const signedIn = (response: Response) => response.status === 302 && !(response.headers.get("location") ?? "").includes("error=");

async function makeUser(email: string, role: "viewer" | "builder" | "admin" = "viewer"): Promise<{ id: string; password: string }> {
  const issued = await users.createUser(null, { email, name: email, role }, db);
  if (!issued.oneTimePassword) throw new Error("expected a one-time password");
  return { id: issued.user.id, password: issued.oneTimePassword };
}

describe("password guessing", () => {
  it("30 wrong passwords for one account from one address: that address is refused (429 + Retry-After) after ten, the owner still signs in elsewhere; audited without passwords", async () => {
    const victim = await makeUser("victim@example.com");
    const attacker = new Client("198.51.100.1");
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await attacker.signIn("victim@example.com", `guess-${i}`)).status);
    expect(statuses.slice(0, 10), "the first ten are ordinary failures").toEqual(Array(10).fill(302));
    expect(statuses.slice(10), "then every attempt from that address is refused before any password is checked").toEqual(Array(20).fill(429));

    const next = await attacker.signIn("victim@example.com", "guess-31");
    expect(next.status).toBe(429);
    expect(Number(next.headers.get("retry-after")), "Retry-After says how long: the first block is 15 minutes").toBeGreaterThan(14 * 60);
    expect((await next.json()).error).toMatchObject({ code: "rate_limited", message: expect.stringMatching(/^Too many attempts; try again in \d+ minutes$/) });
    expect((await attacker.signIn("victim@example.com", victim.password)).status, "the right password from the guessing address waits too").toBe(429);

    const owner = new Client("198.51.100.2");
    expect(signedIn(await owner.signIn("victim@example.com", victim.password)), "the owner, from an address with no failures, is not locked out").toBe(true);
    expect(owner.hasSession()).toBe(true);

    const rows = await db.auditEvent.findMany({ where: { target: "victim@example.com" } });
    expect(rows.filter((r) => r.action === "auth.sign_in_failed")).toHaveLength(10);
    expect(rows.filter((r) => r.action === "auth.sign_in_throttled").length, "the address's block (and the account's guard) audited once each").toBeGreaterThanOrEqual(1);
    const details = rows.map((r) => r.details).join("\n");
    expect(details).toContain('"ip":"198.51.100.1"');
    expect(details, "no attempted password is written").not.toContain("guess-");

    // Once the address's block has run out, the owner signs in from there too.
    await db.rateLimit.updateMany({ where: { key: { startsWith: "signin-" } }, data: { expire: new Date(Date.now() - 1000) } });
    expect(signedIn(await new Client("198.51.100.1").signIn("victim@example.com", victim.password)), "after the window, from the guessing address too").toBe(true);
  });

  it("60 wrong passwords sent at once for one account: at most the limit are checked (counted before the hash)", async () => {
    await makeUser("rushed@example.com");
    const attempts = Array.from({ length: 60 }, (_, i) => new Client("198.51.100.20").signIn("rushed@example.com", `parallel-${i}`));
    const statuses = (await Promise.all(attempts)).map((r) => r.status);
    const checked = await db.auditEvent.count({ where: { action: "auth.sign_in_failed", target: "rushed@example.com" } });
    expect(checked, "passwords verified (each verified wrong password is audited once)").toBeLessThanOrEqual(10);
    expect(checked).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 302 || s === 429)).toBe(true);
  });

  it("60 wrong passwords at once from 60 addresses: each address that already failed is refused once the account is guarded", async () => {
    await makeUser("spread@example.com");
    for (let i = 0; i < 10; i++) await new Client(`198.51.100.${30 + (i % 2)}`).signIn("spread@example.com", `first-${i}`);
    // The account is guarded now: the two addresses that failed may not try again; the guessing from them stops.
    const again = await Promise.all(Array.from({ length: 20 }, (_, i) => new Client(`198.51.100.${30 + (i % 2)}`).signIn("spread@example.com", `again-${i}`)));
    expect(again.map((r) => r.status)).toEqual(Array(20).fill(429));
    expect(await db.auditEvent.count({ where: { action: "auth.sign_in_failed", target: "spread@example.com" } })).toBe(10);
  });

  it("an admin sees a block on the users page's API and lifts it (audited); the owner then signs in from that address", async () => {
    const owner = await makeUser("blocked@example.com");
    const shared = new Client("198.51.100.40");
    for (let i = 0; i < 10; i++) await shared.signIn("blocked@example.com", `wrong-${i}`);
    expect((await shared.signIn("blocked@example.com", owner.password)).status, "blocked from this address").toBe(429);

    const admin = await makeUser("unblocker@example.com", "admin");
    await db.user.update({ where: { id: admin.id }, data: { mustChangePassword: false } });
    const adminBrowser = new Client("198.51.100.41");
    expect(signedIn(await adminBrowser.signIn("unblocker@example.com", admin.password))).toBe(true);
    const headers = adminBrowser.headers({ origin: ORIGIN });
    scope.headers = headers;
    const listed = (await (await usersRoute.GET(new NextRequest(`${ORIGIN}/api/users`, { headers }), { params: Promise.resolve({}) })).json()) as { users: { email: string; signInBlock: unknown }[] };
    const row = listed.users.find((u) => u.email === "blocked@example.com");
    expect(row?.signInBlock).toMatchObject({ addresses: [{ address: "198.51.100.40", until: expect.any(String) }] });

    const liftRoute = await import("@/app/api/users/[id]/sign-in-block/route");
    scope.headers = headers;
    const lifted = await liftRoute.DELETE(new NextRequest(`${ORIGIN}/api/users/${owner.id}/sign-in-block`, { method: "DELETE", headers }), { params: Promise.resolve({ id: owner.id }) });
    expect(lifted.status).toBe(200);
    expect(((await lifted.json()) as { signInBlock: unknown }).signInBlock).toBeNull();
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "user.sign_in_unblocked", target: owner.id } });
    expect(audit.actorId).toBe(admin.id);
    expect(audit.details).toContain("198.51.100.40");

    expect(signedIn(await new Client("198.51.100.40").signIn("blocked@example.com", owner.password)), "lifted: the owner signs in from that address").toBe(true);
  });

  it("the sign-in form (server action) says how long to wait once the account is blocked, and hashes nothing", async () => {
    const { signInWithPassword } = await import("../../actions/sign-in");
    const user = await makeUser("formuser@example.com");
    const form = (password: string) => {
      const data = new FormData();
      data.set("email", "FormUser@example.com");
      data.set("password", password);
      return data;
    };
    scope.headers = new Client("198.51.100.11").headers();
    for (let i = 0; i < 10; i++) expect(await signInWithPassword({}, form(`wrong-${i}`))).toEqual({ error: "Wrong email or password" });
    expect(await signInWithPassword({}, form("wrong-10"))).toEqual({ error: "Too many attempts; try again in 15 minutes" });
    expect(await signInWithPassword({}, form(user.password)), "the right password waits too").toEqual({ error: "Too many attempts; try again in 15 minutes" });
    expect(await db.auditEvent.count({ where: { action: "auth.sign_in_failed", target: "formuser@example.com" } }), "blocked attempts never reached the password check").toBe(10);
  });

  it("a success resets the account's count", async () => {
    const user = await makeUser("forgetful@example.com");
    const client = new Client("198.51.100.3");
    for (let i = 0; i < 9; i++) expect((await client.signIn("forgetful@example.com", `typo-${i}`)).status).toBe(302);
    expect(signedIn(await client.signIn("forgetful@example.com", user.password)), "the tenth attempt, right, signs in").toBe(true);
    for (let i = 0; i < 9; i++) {
      expect((await client.signIn("forgetful@example.com", `typo-again-${i}`)).status, "nine more failures are not blocked: the count started again").toBe(302);
    }
    expect(signedIn(await client.signIn("forgetful@example.com", user.password))).toBe(true);
  });

  it("one address guessing across many accounts is blocked after 30 failures", async () => {
    const spray = new Client("198.51.100.4");
    for (let i = 0; i < 30; i++) expect((await spray.signIn(`nobody-${i}@example.com`, "Winter2025!")).status).toBe(302);
    const response = await spray.signIn("nobody-31@example.com", "Winter2025!");
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await new Client("198.51.100.5").signIn("nobody-31@example.com", "Winter2025!")).status, "another address is not blocked").toBe(302);
  });

  it("a legacy bcrypt hash signs in and is replaced by argon2id", async () => {
    const legacy = await makeUser("legacy@example.com");
    await db.user.update({ where: { id: legacy.id }, data: { passwordHash: await bcrypt.hash("old-bcrypt-password", 10) } });
    expect(signedIn(await new Client("198.51.100.6").signIn("legacy@example.com", "old-bcrypt-password"))).toBe(true);
    const row = await db.user.findUniqueOrThrow({ where: { id: legacy.id }, omit: { passwordHash: false } });
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});

describe("who sees sign-in failures", () => {
  it("the emails tried and the addresses are in the audit for admins only", async () => {
    const { listAuditEvents } = await import("../../inbox/server/audit");
    await new Client("198.51.100.50").signIn("who-is-this@example.com", "nope");
    const filter = { page: 1, pageSize: 200, person: undefined, from: undefined, to: undefined };
    const asViewer = await listAuditEvents(db, filter, { id: "a-viewer", role: "viewer" });
    const asAdmin = await listAuditEvents(db, filter, { id: "an-admin", role: "admin" });
    const text = (page: typeof asViewer) => JSON.stringify(page.rows);
    expect(text(asAdmin)).toContain("who-is-this@example.com");
    expect(text(asViewer), "no tried email").not.toContain("who-is-this@example.com");
    expect(text(asViewer), "no address").not.toContain("198.51.100.");
    expect(asViewer.rows.some((r) => r.action === "auth.sign_in_failed" || r.action === "auth.sign_in_throttled")).toBe(false);
    expect((await listAuditEvents(db, { ...filter, action: "auth.sign_in_failed" }, { id: "a-builder", role: "builder" })).total, "not by asking for them either").toBe(0);
  });
});

describe("disabling and resetting", () => {
  it("a disabled user's session ends at once and they cannot sign in again", async () => {
    const admin = await makeUser("boss@example.com", "admin");
    const leaver = await makeUser("leaver@example.com");
    const browser = new Client("198.51.100.7");
    expect(signedIn(await browser.signIn("leaver@example.com", leaver.password))).toBe(true);
    expect(await browser.me()).toBe(200);

    await users.setUserDisabled({ id: admin.id }, { userId: leaver.id, disabled: true }, db);
    expect(await browser.me(), "the same cookie is refused on the next request").toBe(401);
    const again = await browser.signIn("leaver@example.com", leaver.password);
    expect(signedIn(again), "a disabled account cannot sign in").toBe(false);
    expect(again.headers.get("location"), "with the same answer as a wrong password").toContain("error=CredentialsSignin");

    await users.setUserDisabled({ id: admin.id }, { userId: leaver.id, disabled: false }, db);
    expect(await browser.me(), "enabling again does not revive the session issued before the disable").toBe(401);
    expect(signedIn(await browser.signIn("leaver@example.com", leaver.password)), "enabled again, they sign in").toBe(true);
  });

  it("a password reset ends every session of the user", async () => {
    const admin = await makeUser("boss2@example.com", "admin");
    const victim = await makeUser("phished@example.com");
    const thief = new Client("198.51.100.8");
    expect(signedIn(await thief.signIn("phished@example.com", victim.password))).toBe(true);
    expect(await thief.me()).toBe(200);
    const issued = await users.resetUserPassword({ id: admin.id }, { userId: victim.id }, db);
    expect(await thief.me(), "the session that began before the reset is refused").toBe(401);
    const owner = new Client("198.51.100.9");
    expect(signedIn(await owner.signIn("phished@example.com", issued.oneTimePassword ?? ""))).toBe(true);
    expect(await owner.me()).toBe(200);
  });

  it("the last enabled admin cannot be disabled, and nobody disables themselves", async () => {
    const admins = await db.user.findMany({ where: { role: "admin", disabledAt: null }, select: { id: true } });
    const [me, ...others] = admins.map((a) => a.id);
    await expect(users.setUserDisabled({ id: me! }, { userId: me!, disabled: true }, db)).rejects.toThrow("You cannot disable your own account");
    for (const other of others) await users.setUserDisabled({ id: me! }, { userId: other, disabled: true }, db);
    await expect(users.setUserDisabled(null, { userId: me!, disabled: true }, db)).rejects.toThrow(/last enabled admin/);
    for (const other of others) await users.setUserDisabled({ id: me! }, { userId: other, disabled: false }, db);
  });
});

describe("who may manage users", () => {
  it("a builder cannot create users through the API (403) and nothing is written", async () => {
    const builder = await makeUser("builder2@example.com", "builder");
    await db.user.update({ where: { id: builder.id }, data: { mustChangePassword: false } }); // they chose their own password
    const client = new Client("198.51.100.10");
    expect(signedIn(await client.signIn("builder2@example.com", builder.password))).toBe(true);
    const headers = client.headers({ "content-type": "application/json", origin: ORIGIN });
    scope.headers = headers;
    const response = await usersRoute.POST(
      new NextRequest(`${ORIGIN}/api/users`, { method: "POST", headers, body: JSON.stringify({ email: "backdoor@example.com", name: "Backdoor", role: "admin" }) }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(403);
    expect((await response.json()).error).toMatchObject({ code: "forbidden", message: expect.stringContaining("users:manage") });
    expect(await db.user.findUnique({ where: { email: "backdoor@example.com" } })).toBeNull();
  });
});

describe("one-time passwords", () => {
  it("allow nothing but choosing your own password: whoever else saw it cannot use the account", async () => {
    const admin = await makeUser("issuer@example.com", "admin");
    const client = new Client("198.51.100.11");
    expect(signedIn(await client.signIn("issuer@example.com", admin.password))).toBe(true);
    const json = (body: unknown) => {
      const headers = client.headers({ "content-type": "application/json", origin: ORIGIN });
      scope.headers = headers;
      return { method: "POST", headers, body: JSON.stringify(body) };
    };
    const createUser = () => usersRoute.POST(new NextRequest(`${ORIGIN}/api/users`, json({ email: "created@example.com", name: "Created", role: "viewer" })), { params: Promise.resolve({}) });
    const refused = await createUser();
    expect(refused.status, "an admin still holding a one-time password cannot act as admin").toBe(403);
    expect((await refused.json()).error.message).toMatch(/Choose your own password first/);
    expect(await db.user.findUnique({ where: { email: "created@example.com" } })).toBeNull();

    const changed = await passwordRoute.POST(new NextRequest(`${ORIGIN}/api/me/password`, json({ currentPassword: admin.password, newPassword: "a-long-new-passphrase-42" })), { params: Promise.resolve({}) });
    expect(changed.status).toBe(200);
    // (The route re-issues this browser's cookie through next/headers, which this test stands in for: sign in again.)
    expect(signedIn(await client.signIn("issuer@example.com", "a-long-new-passphrase-42"))).toBe(true);
    expect((await createUser()).status, "once they chose their own, the role applies").toBe(201);
  });
});

describe("production mode", () => {
  it("refuses to start while a demo account is enabled, and says how to fix it", async () => {
    const { productionStartRefusal } = await import("../production-mode");
    const { checkProductionAccounts } = await import("../../../scripts/lib/production-mode");
    expect(await productionStartRefusal(db, "demo"), "demo mode starts").toBeNull();
    const refusal = await productionStartRefusal(db, "production");
    expect(refusal).toContain("admin@zap.local");
    expect(refusal).toContain("npm run user:create -- --admin you@example.com --disable-demo");
    const config = parseEnv({ ...process.env, DATABASE_URL: database.url, ZAP_MODE: "production" });
    await expect(checkProductionAccounts(config), "the npm start step refuses too").rejects.toThrow(/refuses to start while demo accounts are enabled/);

    const demo = await db.user.findMany({ where: { isDemo: true }, select: { id: true } });
    for (const account of demo) await db.user.update({ where: { id: account.id }, data: { disabledAt: new Date() } });
    expect(await productionStartRefusal(db, "production"), "disabled demo accounts do not block").toBeNull();
    expect(await checkProductionAccounts(config)).toBe("no demo account is enabled");
    for (const account of demo) await db.user.update({ where: { id: account.id }, data: { disabledAt: null } });
  });
});
