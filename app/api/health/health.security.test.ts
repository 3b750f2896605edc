// Issue 36 §1, as an outsider would try it: GET /api/health is public (load
// balancers and `npm start` ask it before anyone signs in), and it used to
// answer everyone with the whole report — the Temporal namespace, the task
// queue and its pollers, the OTLP export's counters, the derive lag. Without a
// session or a usable API key it now says only whether the system is healthy;
// a signed-in reader (session or key) still gets the whole report. Through the
// real route, real Auth.js sign-in and a real SQLite database.
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
let healthRoute: typeof import("@/app/api/health/route");
let users: typeof import("@/lib/users/server/users");
let apiKeys: typeof import("@/lib/api-keys/server/api-keys");
const holder = globalThis as typeof globalThis & { zapDb?: unknown };

beforeAll(async () => {
  database = await freshSqlite();
  await applyMigrations(database.url);
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET = "security-test-secret-0123456789-abcdefghij";
  db = createDb(database.url);
  holder.zapDb = db;
  authRoute = await import("@/app/api/auth/[...nextauth]/route");
  healthRoute = await import("@/app/api/health/route");
  users = await import("@/lib/users/server/users");
  apiKeys = await import("@/lib/api-keys/server/api-keys");
  // A probe that cannot reach Temporal logs why (the answer itself is a fixed phrase).
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});

afterAll(async () => {
  delete holder.zapDb;
  await db.$disconnect();
  await database.drop();
});

/** Signs in through Auth.js's real route; returns the session cookie header. */
async function signIn(email: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const value = pair.slice(pair.indexOf("=") + 1);
      if (value && !/max-age=0/i.test(line)) jar.set(pair.slice(0, pair.indexOf("=")), value);
    }
    return response;
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const headers = (extra: Record<string, string> = {}) => new Headers({ host: "127.0.0.1:3000", ...(jar.size ? { cookie: cookie() } : {}), ...extra });
  scope.headers = headers();
  const csrf = keep(await authRoute.GET(new NextRequest(`${ORIGIN}/api/auth/csrf`, { headers: headers() })));
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  scope.headers = headers();
  const body = new URLSearchParams({ email, password, csrfToken, callbackUrl: `${ORIGIN}/` });
  const response = keep(await authRoute.POST(new NextRequest(`${ORIGIN}/api/auth/callback/credentials`, { method: "POST", body, headers: headers({ "content-type": "application/x-www-form-urlencoded" }) })));
  if (response.status !== 302 || (response.headers.get("location") ?? "").includes("error=")) throw new Error(`sign-in of ${email} failed`);
  return cookie();
}

async function health(extra: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers = new Headers({ host: "127.0.0.1:3000", ...extra });
  // The session is read through next/headers (Auth.js), the key from the request itself.
  scope.headers = headers;
  const response = await healthRoute.GET(new NextRequest(`${ORIGIN}/api/health`, { headers }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The short answer: the status alone, 200 when ok and 503 when not. */
function expectStatusOnly(answer: { status: number; body: Record<string, unknown> }, why: string) {
  expect(Object.keys(answer.body), why).toEqual(["status"]);
  expect(answer.status, why).toBe(answer.body.status === "ok" ? 200 : 503);
}

describe("GET /api/health", () => {
  it("without a session says only whether it is healthy: no namespace, task queue, pollers, export counters or lag", async () => {
    const answer = await health();
    expectStatusOnly(answer, "no session");
    expect(["ok", "degraded"]).toContain(answer.body.status);
    const text = JSON.stringify(answer.body);
    for (const secret of ["namespace", "taskQueue", "pollers", "otlpExport", "derived", "provider"]) expect(text).not.toContain(secret);
  });

  it("a made-up or revoked API key, a forged cookie, or a user who must still choose a password gets the short answer too", async () => {
    expectStatusOnly(await health({ authorization: "Bearer zap_not-a-real-key-0000000000000000000000000000000000" }), "made-up key");
    expectStatusOnly(await health({ cookie: "authjs.session-token=forged" }), "forged cookie");
    const owner = await users.createUser(null, { email: "health-keys@example.com", name: "Kim", role: "viewer" }, db);
    await db.user.update({ where: { id: owner.user.id }, data: { mustChangePassword: false } });
    const created = await apiKeys.createApiKey({ id: owner.user.id, role: "viewer" }, { name: "probe", role: "viewer" }, db);
    await apiKeys.revokeApiKey({ id: owner.user.id, role: "viewer" }, { id: created.key.id }, db);
    expectStatusOnly(await health({ authorization: `Bearer ${created.token}` }), "revoked key");
    const reset = await users.createUser(null, { email: "health-otp@example.com", name: "Otto", role: "viewer" }, db);
    const cookie = await signIn("health-otp@example.com", reset.oneTimePassword!);
    expectStatusOnly(await health({ cookie }), "one-time password: may do nothing but choose one");
  });

  it("a signed-in session or a usable key gets the whole report, derive lag included", async () => {
    const viewer = await users.createUser(null, { email: "health-viewer@example.com", name: "Val", role: "viewer" }, db);
    await db.user.update({ where: { id: viewer.user.id }, data: { mustChangePassword: false } });
    const cookie = await signIn("health-viewer@example.com", viewer.oneTimePassword!);
    const created = await apiKeys.createApiKey({ id: viewer.user.id, role: "viewer" }, { name: "monitoring", role: "viewer" }, db);
    for (const [who, extra] of [
      ["session", { cookie }],
      ["key", { authorization: `Bearer ${created.token}` }],
    ] as const) {
      const answer = await health(extra);
      expect(answer.status, who).toBe(answer.body.status === "ok" ? 200 : 503);
      expect(answer.body, who).toMatchObject({
        database: { provider: "sqlite" },
        temporal: { namespace: expect.any(String) },
        workers: { taskQueue: expect.any(String), pollers: expect.any(Number) },
        derived: { queued: 0, lagMs: 0 },
      });
      expect(answer.body, who).toHaveProperty("otlpExport");
    }
  });
});
