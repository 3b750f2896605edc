// Issue 36 §1, "access ends when it should", as an attacker holding a key or a
// session would find it: every live stream (GET /api/runs/:runId/stream, GET
// /api/runs/feed, GET /api/approvals/feed), opened through its real route
// handler and kept busy (the run writes an event, moves and asks an approval
// every 400 ms), ends within its re-check period once its caller may no longer
// read, with a last `end` event naming why: a key revoked through its route or
// expired, a user disabled or reset by an admin through the routes, a session
// signed out on another web server (only the database knows) or on this one
// (at once). The caller's other sessions go on. Real Auth.js sign-in and
// session resolution, a real (SQLite) database, the default period.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { createDb, type Db } from "@/lib/db/prisma";
import type { TestDatabase } from "@/scripts/test-support/databases";
import { seededSqlite } from "@/scripts/test-support/seeded-sqlite";
import { STREAM_RECHECK_MS } from "./stream-guard";

const ORIGIN = "http://127.0.0.1:3000";
/** The period, plus a check's reads and the stream's next turn on a loaded machine. */
const ENDS_WITHIN_MS = STREAM_RECHECK_MS + 2_500;

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
let keysRoute: typeof import("@/app/api/api-keys/route");
let keyRoute: typeof import("@/app/api/api-keys/[id]/route");
let runStreamRoute: typeof import("@/app/api/runs/[runId]/stream/route");
let runsFeedRoute: typeof import("@/app/api/runs/feed/route");
let approvalsFeedRoute: typeof import("@/app/api/approvals/feed/route");
let disableRoute: typeof import("@/app/api/users/[id]/disable/route");
let resetRoute: typeof import("@/app/api/users/[id]/password-reset/route");
let users: typeof import("@/lib/users/server/users");
const holder = globalThis as typeof globalThis & { zapDb?: unknown };

beforeAll(async () => {
  // Migrated and demo-seeded: a copy of the global setup's template (no Prisma CLI run, no bcrypt hashes here).
  database = await seededSqlite();
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET = "security-test-secret-0123456789-abcdefghij";
  db = createDb(database.url);
  holder.zapDb = db;
  authRoute = await import("@/app/api/auth/[...nextauth]/route");
  keysRoute = await import("@/app/api/api-keys/route");
  keyRoute = await import("@/app/api/api-keys/[id]/route");
  runStreamRoute = await import("@/app/api/runs/[runId]/stream/route");
  runsFeedRoute = await import("@/app/api/runs/feed/route");
  approvalsFeedRoute = await import("@/app/api/approvals/feed/route");
  disableRoute = await import("@/app/api/users/[id]/disable/route");
  resetRoute = await import("@/app/api/users/[id]/password-reset/route");
  users = await import("@/lib/users/server/users");
});

afterAll(async () => {
  delete holder.zapDb;
  await db.$disconnect();
  await database.drop();
});

const noParams = { params: Promise.resolve({} as Record<string, never>) };

/** A browser with a cookie jar (signs in through Auth.js's real route). */
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

  /** A request from the app's own page: its cookie (and Origin for a change). */
  request(path: string, method = "GET", body?: unknown): NextRequest {
    const headers = this.headers(method === "GET" ? {} : { origin: ORIGIN, ...(body === undefined ? {} : { "content-type": "application/json" }) });
    scope.headers = headers;
    return new NextRequest(`${ORIGIN}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  /** The session id of this browser's sign-in, as the server reads it. */
  async sessionId(): Promise<string> {
    scope.headers = this.headers();
    const { auth } = await import("@/lib/auth/server/auth");
    const session = await auth();
    if (!session?.sessionId) throw new Error("no session");
    return session.sessionId;
  }
}

/** A request from a program: its key, no cookie, no Origin. */
function withKey(token: string, path: string, method = "GET"): NextRequest {
  scope.headers = new Headers();
  return new NextRequest(`${ORIGIN}${path}`, { method, headers: { host: "127.0.0.1:3000", authorization: `Bearer ${token}` } });
}

async function makeUser(email: string, role: "viewer" | "builder" | "admin"): Promise<{ id: string; password: string; browser: Browser }> {
  const issued = await users.createUser(null, { email, name: email, role }, db);
  await db.user.update({ where: { id: issued.user.id }, data: { mustChangePassword: false } });
  const browser = new Browser();
  await browser.signIn(email, issued.oneTimePassword!);
  return { id: issued.user.id, password: issued.oneTimePassword!, browser };
}

async function createKey(browser: Browser, name: string): Promise<{ id: string; token: string }> {
  const response = await keysRoute.POST(browser.request("/api/api-keys", "POST", { name, role: "viewer" }), noParams);
  expect(response.status, await response.clone().text()).toBe(201);
  const { key, token } = (await response.json()) as { key: { id: string }; token: string };
  return { id: key.id, token };
}

interface Frame {
  event: string;
  data: Record<string, unknown>;
}

/** Reads an open stream's answer in the background: its frames, and when it ended. */
function follow(response: Response) {
  expect(response.status, "the stream opened").toBe(200);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const frames: Frame[] = [];
  let buffer = "";
  const state = { endedAt: null as number | null };
  const done = (async () => {
    try {
      for (;;) {
        const { done: finished, value } = await reader.read();
        if (finished) break;
        buffer += decoder.decode(value, { stream: true });
        for (let at = buffer.indexOf("\n\n"); at >= 0; at = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const event = block.match(/^event: (.*)$/m)?.[1];
          if (event) frames.push({ event, data: JSON.parse(block.match(/^data: (.*)$/m)?.[1] ?? "{}") as Record<string, unknown> });
        }
      }
    } finally {
      state.endedAt = Date.now();
    }
  })();
  return {
    frames,
    done,
    get endedAt() {
      return state.endedAt;
    },
    /** Frames that carry news (not `ready`, `end` or a resync). */
    news: () => frames.filter((f) => !["ready", "resync", "end", "retry"].includes(f.event)).length,
    cancel: () => reader.cancel(),
  };
}
type Followed = ReturnType<typeof follow>;

/** Keeps a run busy: every 400 ms a ledger event, a new iteration and a new pending approval (each stream has news). */
async function busyRun(runId: string): Promise<{ stop(): void }> {
  await db.run.create({ data: { id: runId, rootRunId: runId, agentName: "busy", task: "keep busy", status: "thinking", lastEventSeq: 0 } });
  let seq = 0;
  const tick = async (n: number) => {
    const data = JSON.stringify({ seq: n, at: new Date().toISOString(), type: "iteration_started", iteration: n });
    const now = new Date();
    await db.runEvent.create({ data: { runId, seq: n, type: "iteration_started", at: now, data, bytes: Buffer.byteLength(data) } });
    await db.approvalRecord.create({
      data: { id: `${runId}-ask-${n}`, runId, rootRunId: runId, agentName: "busy", toolName: "transfer", toolCallId: `call-${n}`, arguments: "{}", requestedAt: now, expiresAt: new Date(now.getTime() + 600_000) },
    });
    await db.run.update({ where: { id: runId }, data: { lastEventSeq: n, iteration: n, pendingApprovals: n } });
  };
  const timer = setInterval(() => void tick(++seq).catch(() => undefined), 400);
  return { stop: () => clearInterval(timer) };
}

/** The run stream and both feeds, each opened through its route by `request`. */
async function openAll(runId: string, request: (path: string) => NextRequest): Promise<Record<"run" | "runs" | "approvals", Followed>> {
  const run = follow(await runStreamRoute.GET(request(`/api/runs/${runId}/stream`), { params: Promise.resolve({ runId }) }));
  const runs = follow(await runsFeedRoute.GET(request("/api/runs/feed"), noParams));
  const approvals = follow(await approvalsFeedRoute.GET(request("/api/approvals/feed"), noParams));
  return { run, runs, approvals };
}

/** Waits until every stream has had news (it is busy), then returns the moment access is taken away. */
async function whenBusy(streams: Followed[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!streams.every((s) => s.news() >= 2)) {
    if (Date.now() > deadline) throw new Error(`streams not busy: ${streams.map((s) => s.news()).join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Each stream ended within the period after `since`, its last frame `end` with the reason; returns the messages. */
async function expectEnded(streams: Record<string, Followed>, since: number, reason: string): Promise<string[]> {
  await Promise.race([Promise.all(Object.values(streams).map((s) => s.done)), new Promise((resolve) => setTimeout(resolve, ENDS_WITHIN_MS + 2_000))]);
  const messages: string[] = [];
  for (const [name, stream] of Object.entries(streams)) {
    expect(stream.endedAt, `${name} ended`).not.toBeNull();
    expect((stream.endedAt ?? Infinity) - since, `${name} ended within ${ENDS_WITHIN_MS} ms`).toBeLessThan(ENDS_WITHIN_MS);
    const last = stream.frames.at(-1);
    expect(last?.event, `${name}'s last frame`).toBe("end");
    expect(last?.data.reason, `${name}'s reason`).toBe(reason);
    messages.push(String(last?.data.message));
  }
  return messages;
}

describe("a live stream ends when its caller's access does, busy or not", () => {
  it(`a key revoked through DELETE /api/api-keys/:id, or expired: its run stream and both feeds end within ${STREAM_RECHECK_MS / 1000} s with end naming why`, async () => {
    const owner = await makeUser("stream-key-owner@example.com", "builder");
    const revoked = await createKey(owner.browser, "revoked while streaming");
    const expiring = await createKey(owner.browser, "expires while streaming");
    const busy = await busyRun("busy-key-run");
    try {
      const byRevoked = await openAll("busy-key-run", (path) => withKey(revoked.token, path));
      const byExpiring = { runs: follow(await runsFeedRoute.GET(withKey(expiring.token, "/api/runs/feed"), noParams)) };
      await whenBusy([...Object.values(byRevoked), byExpiring.runs]);

      const revokedAt = Date.now();
      const revoke = await keyRoute.DELETE(owner.browser.request(`/api/api-keys/${revoked.id}`, "DELETE"), { params: Promise.resolve({ id: revoked.id }) });
      expect(revoke.status, await revoke.clone().text()).toBe(200);
      await db.apiKey.update({ where: { id: expiring.id }, data: { expiresAt: new Date() } });

      const messages = await expectEnded(byRevoked, revokedAt, "key_revoked");
      expect(messages[0]).toMatch(/^API key refused: this key was revoked at /);
      const [expired] = await expectEnded(byExpiring, revokedAt, "key_expired");
      expect(expired).toMatch(/^API key refused: this key expired at /);
      expect(byRevoked.run.news() + byRevoked.runs.news() + byRevoked.approvals.news(), "news went out until then").toBeGreaterThan(6);
    } finally {
      busy.stop();
    }
  });

  it(`a user disabled or reset by an admin through the routes, a session signed out on another web server or this one: each session's streams end (within ${STREAM_RECHECK_MS / 1000} s; at once for a sign-out here) naming why, the user's other session goes on`, async () => {
    const admin = new Browser();
    await admin.signIn("admin@zap.local", "admin-demo");
    const disabled = await makeUser("stream-disabled@example.com", "viewer");
    const reset = await makeUser("stream-reset@example.com", "viewer");
    const remote = await makeUser("stream-remote@example.com", "viewer");
    const leaving = await makeUser("stream-leaving@example.com", "viewer");
    const staying = new Browser();
    await staying.signIn("stream-leaving@example.com", leaving.password);
    const busy = await busyRun("busy-session-run");
    try {
      const ofDisabled = await openAll("busy-session-run", (path) => disabled.browser.request(path));
      const ofReset = { approvals: follow(await approvalsFeedRoute.GET(reset.browser.request("/api/approvals/feed"), noParams)) };
      const ofElsewhere = { runs: follow(await runsFeedRoute.GET(remote.browser.request("/api/runs/feed"), noParams)) };
      const ofHere = { run: follow(await runStreamRoute.GET(leaving.browser.request("/api/runs/busy-session-run/stream"), { params: Promise.resolve({ runId: "busy-session-run" }) })) };
      const ofStaying = follow(await runsFeedRoute.GET(staying.request("/api/runs/feed"), noParams));
      await whenBusy([...Object.values(ofDisabled), ofReset.approvals, ofElsewhere.runs, ofHere.run, ofStaying]);

      const actedAt = Date.now();
      const disable = await disableRoute.POST(admin.request(`/api/users/${disabled.id}/disable`, "POST"), { params: Promise.resolve({ id: disabled.id }) });
      expect(disable.status, await disable.clone().text()).toBe(200);
      const resetAnswer = await resetRoute.POST(admin.request(`/api/users/${reset.id}/password-reset`, "POST"), { params: Promise.resolve({ id: reset.id }) });
      expect(resetAnswer.status, await resetAnswer.clone().text()).toBe(200);
      // Signed out on another web server: only its record in the database says so.
      const { recordSignOut } = await import("@/lib/auth/server/sessions");
      await recordSignOut(db, { sessionId: await remote.browser.sessionId(), userId: remote.id });
      // Signed out on this one: the record, and this server's streams of the user re-check at once (the sign-out action's two steps).
      const hereSession = await leaving.browser.sessionId();
      const signedOutHereAt = Date.now();
      await recordSignOut(db, { sessionId: hereSession, userId: leaving.id });
      const { recheckUserStreams } = await import("./stream-limits");
      recheckUserStreams(leaving.id);

      expect(await expectEnded(ofDisabled, actedAt, "user_disabled")).toContain("Your account was disabled");
      expect(await expectEnded(ofReset, actedAt, "password_reset")).toEqual(["Your password was reset: sign in and choose a new one"]);
      expect(await expectEnded(ofElsewhere, actedAt, "session_ended")).toEqual(["This session was signed out; sign in again"]);
      await expectEnded(ofHere, actedAt, "session_ended");
      expect((ofHere.run.endedAt ?? Infinity) - signedOutHereAt, "a sign-out on this server ends its streams at once").toBeLessThan(1_500);
      const newsBefore = ofStaying.news();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(ofStaying.endedAt, "the same user's other session still streams").toBeNull();
      expect(ofStaying.news(), "and still hears news").toBeGreaterThan(newsBefore);
      await ofStaying.cancel();
    } finally {
      busy.stop();
    }
  });

  it("a session older than its 12 hours is refused by the same check (session_expired), a fresh one of the same user is not", async () => {
    const { sessionCaller } = await import("./stream-access");
    const { SESSION_MAX_AGE_SECONDS } = await import("@/lib/auth/auth-config");
    const user = await makeUser("stream-expiring@example.com", "viewer");
    const old = sessionCaller(db, { userId: user.id, sessionId: "old-session", signedInAt: Date.now() - SESSION_MAX_AGE_SECONDS * 1000 - 1_000 });
    expect(await old.check()).toEqual({ reason: "session_expired", message: "This session expired; sign in again" });
    expect(await sessionCaller(db, { userId: user.id, sessionId: "fresh-session", signedInAt: Date.now() }).check()).toBeNull();
  });
});
