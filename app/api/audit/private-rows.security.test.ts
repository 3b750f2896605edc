// Issue 36 §1, as a viewer would try it through the real routes (real Auth.js
// sign-in, real session resolution, a real SQLite database): another user's
// saved views are private (GET /api/views lists only your own, another's id is a
// 404), yet the audit log (`GET /api/audit`, the page's "All events") listed
// every view.* row — the view's name and filters — and every api_key.* row (who
// holds which key, of what role, when revoked) to anyone who may read. Those rows
// are now for their owner (the actor, or the key's owner) and admins only.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { createDb, type Db } from "@/lib/db/prisma";
import { applyMigrations } from "@/scripts/db/migrate";
import { freshSqlite, type TestDatabase } from "@/scripts/test-support/databases";

const ORIGIN = "http://127.0.0.1:3000";

// Auth.js reads the request's headers through next/headers; outside Next there is no request scope.
const scope = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({
  headers: async () => scope.headers,
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, has: () => false, delete: () => undefined }),
}));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

let database: TestDatabase;
let db: Db;
let authRoute: typeof import("@/app/api/auth/[...nextauth]/route");
let auditRoute: typeof import("@/app/api/audit/route");
let viewsRoute: typeof import("@/app/api/views/route");
let keysRoute: typeof import("@/app/api/api-keys/route");
let keyRoute: typeof import("@/app/api/api-keys/[id]/route");
let users: typeof import("@/lib/users/server/users");
const holder = globalThis as typeof globalThis & { zapDb?: unknown };

beforeAll(async () => {
  database = await freshSqlite();
  await applyMigrations(database.url);
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET = "security-test-secret-0123456789-abcdefghij";
  db = createDb(database.url);
  holder.zapDb = db;
  authRoute = await import("@/app/api/auth/[...nextauth]/route");
  auditRoute = await import("@/app/api/audit/route");
  viewsRoute = await import("@/app/api/views/route");
  keysRoute = await import("@/app/api/api-keys/route");
  keyRoute = await import("@/app/api/api-keys/[id]/route");
  users = await import("@/lib/users/server/users");
});

afterAll(async () => {
  delete holder.zapDb;
  await db.$disconnect();
  await database.drop();
});

const noParams = { params: Promise.resolve({} as Record<string, never>) };

/** A browser with a cookie jar, signed in through Auth.js's real route. */
class Browser {
  private jar = new Map<string, string>();

  headers(extra: Record<string, string> = {}): Headers {
    const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    return new Headers({ host: "127.0.0.1:3000", ...(cookie ? { cookie } : {}), ...extra });
  }

  private keep(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      if (value && !/max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.jar.set(name, value);
      else this.jar.delete(name);
    }
    return response;
  }

  async signIn(email: string, password: string): Promise<void> {
    scope.headers = this.headers();
    const csrf = this.keep(await authRoute.GET(new NextRequest(`${ORIGIN}/api/auth/csrf`, { headers: this.headers() })));
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const body = new URLSearchParams({ email, password, csrfToken, callbackUrl: `${ORIGIN}/` });
    scope.headers = this.headers();
    const response = this.keep(
      await authRoute.POST(new NextRequest(`${ORIGIN}/api/auth/callback/credentials`, { method: "POST", body, headers: this.headers({ "content-type": "application/x-www-form-urlencoded" }) })),
    );
    if (response.status !== 302 || (response.headers.get("location") ?? "").includes("error=")) throw new Error(`sign-in of ${email} failed`);
  }

  /** A request from the app's own page: cookie, Origin, JSON. */
  request(path: string, init: { method?: string; body?: unknown } = {}): NextRequest {
    const headers = this.headers(init.body === undefined ? { origin: ORIGIN } : { origin: ORIGIN, "content-type": "application/json" });
    scope.headers = headers;
    return new NextRequest(`${ORIGIN}${path}`, { method: init.method ?? "GET", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  }
}

async function makeUser(email: string, role: "viewer" | "builder" | "admin"): Promise<{ id: string; browser: Browser }> {
  const issued = await users.createUser(null, { email, name: email, role }, db);
  await db.user.update({ where: { id: issued.user.id }, data: { mustChangePassword: false } });
  const browser = new Browser();
  await browser.signIn(email, issued.oneTimePassword!);
  return { id: issued.user.id, browser };
}

interface AuditPage {
  total: number;
  rows: { action: string; actor: string | null; target: string | null; details: Record<string, unknown> }[];
}

async function audit(browser: Browser, query = ""): Promise<AuditPage> {
  const response = await auditRoute.GET(browser.request(`/api/audit?pageSize=200${query}`), noParams);
  expect(response.status).toBe(200);
  return (await response.json()) as AuditPage;
}

async function saveView(browser: Browser, name: string, graph: string): Promise<string> {
  const response = await viewsRoute.POST(browser.request("/api/views", { method: "POST", body: { name, filters: { graph } } }), noParams);
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function makeKey(browser: Browser, name: string, role: string): Promise<string> {
  const response = await keysRoute.POST(browser.request("/api/api-keys", { method: "POST", body: { name, role } }), noParams);
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { key: { id: string } }).key.id;
}

const OWNER_ONLY = /^(view|api_key)\./;

describe("audit rows of private objects (saved views, API keys)", () => {
  let ann: { id: string; browser: Browser };
  let vic: { id: string; browser: Browser };
  let ada: { id: string; browser: Browser };
  let annKey: string;
  let vicKey: string;

  beforeAll(async () => {
    ann = await makeUser("ann-private@example.com", "builder");
    vic = await makeUser("vic-private@example.com", "viewer");
    ada = await makeUser("ada-private@example.com", "admin");
    await saveView(ann.browser, "Ann's payroll hunt", "payroll-secret-graph");
    annKey = await makeKey(ann.browser, "ann-deploy-key", "builder");
    // An admin revokes Ann's key: the row's actor is the admin, but the key (and so the row) is Ann's.
    const revoked = await keyRoute.DELETE(ada.browser.request(`/api/api-keys/${annKey}`, { method: "DELETE" }), { params: Promise.resolve({ id: annKey }) });
    expect(revoked.status).toBe(200);
    await saveView(vic.browser, "Vic's own view", "vic-graph");
    vicKey = await makeKey(vic.browser, "vic-laptop-key", "viewer");
  });

  it("a viewer does not read another user's saved-view names and filters, nor their api_key.* rows, through GET /api/audit", async () => {
    const page = await audit(vic.browser);
    const text = JSON.stringify(page.rows);
    expect(text, "another's view name").not.toContain("payroll hunt");
    expect(text, "another's view filters").not.toContain("payroll-secret-graph");
    expect(text, "another's key").not.toContain("ann-deploy-key");
    expect(page.rows.filter((r) => OWNER_ONLY.test(r.action) && r.target !== vicKey && r.actor !== "vic-private@example.com"), "no owner-only row of anyone else").toEqual([]);
    for (const action of ["view.created", "api_key.created", "api_key.revoked"]) {
      const asked = await audit(vic.browser, `&action=${action}`);
      expect(JSON.stringify(asked.rows), `not by asking for ${action} either`).not.toMatch(/ann-|payroll/);
    }
    const byAnn = await audit(vic.browser, "&person=ann-private");
    expect(byAnn.rows.map((r) => r.action).filter((a) => OWNER_ONLY.test(a)), "not by asking for Ann's rows").toEqual([]);
  });

  it("the viewer still reads their own: their view's row and their key's", async () => {
    const page = await audit(vic.browser);
    expect(page.rows).toContainEqual(expect.objectContaining({ action: "view.created", actor: "vic-private@example.com", details: expect.objectContaining({ name: "Vic's own view" }) }));
    expect(page.rows).toContainEqual(expect.objectContaining({ action: "api_key.created", target: vicKey }));
  });

  it("the key's owner reads its revocation by an admin; the admin reads every row", async () => {
    const annPage = await audit(ann.browser);
    expect(annPage.rows).toContainEqual(expect.objectContaining({ action: "api_key.revoked", target: annKey, actor: "ada-private@example.com" }));
    expect(annPage.rows).toContainEqual(expect.objectContaining({ action: "view.created", details: expect.objectContaining({ name: "Ann's payroll hunt" }) }));
    expect(JSON.stringify(annPage.rows), "nor does Ann read Vic's").not.toContain("Vic's own view");

    const adminPage = await audit(ada.browser);
    const text = JSON.stringify(adminPage.rows);
    for (const seen of ["Ann's payroll hunt", "Vic's own view", "ann-deploy-key", "vic-laptop-key"]) expect(text).toContain(seen);
  });
});
