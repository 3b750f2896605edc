// Schedules on real Temporal Schedules (issue 39 §1), SQLite and PostgreSQL,
// driven through the HTTP routes as a builder would: a schedule with a short
// interval starts runs linked to it (the runs list filters by it, the starter
// is the owner), pause stops its firings, "run now" and a backfill of a past
// range start runs, cancel_other cancels the run still working when the next
// firing comes, N failed runs in a row pause it and post the alert to the
// monitors' webhook, an owner demoted to viewer gets a refused firing and no
// run, delete removes the Temporal Schedule; a viewer is refused (403) and bad
// input is answered 422 naming the field, with nothing changed.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testProviders } from "../../scripts/test-support/databases";
import { eventually, singleAgentGraph, startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { doors } from "../../scripts/test-support/parity-doors";
import { scaledWait } from "../../scripts/test-support/wait-scale";
import { apiRequest, params, routeOutcome, type Outcome } from "../../scripts/test-support/parity";
import { saveAgentVersion } from "../agents/repository";
import { temporalScheduleExists, temporalScheduleId } from "./temporal";
import type { ScheduleView } from "./schemas";

const temporal = vi.hoisted(() => ({ client: null as Client | null }));
vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("@/lib/engine/server/engine", async () => (await import("../../scripts/test-support/parity-doors")).engineModule);
vi.mock("@/lib/temporal/server/client", () => ({ getTemporalClient: () => temporal.client }));
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const schedulesRoute = await import("@/app/api/schedules/route");
const scheduleRoute = await import("@/app/api/schedules/[scheduleId]/route");
const pauseRoute = await import("@/app/api/schedules/[scheduleId]/pause/route");
const resumeRoute = await import("@/app/api/schedules/[scheduleId]/resume/route");
const triggerRoute = await import("@/app/api/schedules/[scheduleId]/trigger/route");
const backfillRoute = await import("@/app/api/schedules/[scheduleId]/backfill/route");
const runsRoute = await import("@/app/api/runs/route");

const providers = await testProviders();
const GRAPH = "nightly-check";

describe.each(providers)("schedules on $provider", ({ available, create }) => {
  let h: EngineHarness;
  let hook: Server;
  const alerts: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    if (!available) return;
    hook = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        alerts.push({ headers: request.headers, body });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
    const host = `127.0.0.1:${(hook.address() as AddressInfo).port}`;
    h = await startEngineHarness({
      database: await create(),
      env: { ZAP_WEBHOOK_URL: `http://${host}/hook`, ZAP_WEBHOOK_SECRET: "a-webhook-secret-of-some-length", ZAP_EGRESS_ALLOW_HOSTS: host },
    });
    doors.db = h.db;
    doors.config = h.config;
    doors.engine = h.engine;
    temporal.client = h.client;
    for (const role of ["admin", "builder", "viewer"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
    await saveAgentVersion(h.db, GRAPH, singleAgentGraph({ name: "main" }), { createdById: ids.builder });
  }, scaledWait(120_000));

  afterAll(async () => {
    if (!available) return;
    // Schedules left by a failed test would fire into a dropped database.
    for (const row of await h.db.schedule.findMany()) await h.client.schedule.getHandle(temporalScheduleId(row.id)).delete().catch(() => undefined);
    await h.stop();
    await new Promise<void>((resolve) => hook.close(() => resolve()));
  });

  const as = (role: string) => {
    doors.userId = ids[role] ?? null;
  };
  const byId = (id: string) => params({ scheduleId: id });
  const createSchedule = async (body: Record<string, unknown>): Promise<Outcome> => routeOutcome(await schedulesRoute.POST(apiRequest("POST", "/api/schedules", body), params({})), "schedule");
  const created = async (body: Record<string, unknown>): Promise<ScheduleView> => {
    const outcome = await createSchedule(body);
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    return (outcome as { data: ScheduleView }).data;
  };
  const linkedRuns = (scheduleId: string) => h.db.run.findMany({ where: { scheduleId }, orderBy: { startedAt: "asc" } });
  const rowOf = (id: string) => h.db.schedule.findUniqueOrThrow({ where: { id } });
  const base = { graph: GRAPH, task: "answer: checked" };

  it.skipIf(!available)("a schedule with a 5-second interval starts runs linked to it, as its owner; pause stops the firings", async () => {
    as("builder");
    const schedule = await created({ ...base, name: "every five seconds", intervalSeconds: 5, overlap: "skip" });
    expect(schedule.syncError, "Temporal took the schedule").toBeNull();
    expect(await temporalScheduleExists(h.client, schedule.id), "the Temporal Schedule exists").toBe(true);
    const [first] = await eventually(() => linkedRuns(schedule.id), (runs) => runs.length > 0, 30_000, "a run of the schedule");
    expect(first?.startedBy, "the schedule's owner starts its runs").toBe("builder@zap.local");
    expect(first?.graphName).toBe(GRAPH);
    await eventually(() => rowOf(schedule.id), (row) => row.lastOutcome === "completed", 30_000, "the first run's outcome recorded");

    const listed = await routeOutcome(await runsRoute.GET(apiRequest("GET", `/api/runs?scheduleId=${schedule.id}`), params({})), "runs");
    expect(listed.ok && (listed.data as { runId: string }[]).map((run) => run.runId), "GET /api/runs filters by schedule").toContain(first?.id);

    const paused = await routeOutcome(await pauseRoute.POST(apiRequest("POST", `/api/schedules/${schedule.id}/pause`, { note: "quiet hours" }), byId(schedule.id)), "schedule");
    expect(paused).toMatchObject({ ok: true, data: { paused: true, pauseNote: "quiet hours", nextFireTimes: [] } });
    expect((await h.client.schedule.getHandle(temporalScheduleId(schedule.id)).describe()).state.paused, "Temporal's schedule is paused").toBe(true);
    // A firing already under way when the pause landed may still start its run; after that, none.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const before = (await linkedRuns(schedule.id)).length;
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    expect((await linkedRuns(schedule.id)).length, "two intervals later, no new run").toBe(before);

    const resumed = await routeOutcome(await resumeRoute.POST(apiRequest("POST", `/api/schedules/${schedule.id}/resume`), byId(schedule.id)), "schedule");
    expect(resumed).toMatchObject({ ok: true, data: { paused: false, pauseNote: null } });
    await eventually(() => linkedRuns(schedule.id), (runs) => runs.length > before, 30_000, "a run after resuming");
    await routeOutcome(await scheduleRoute.DELETE(apiRequest("DELETE", `/api/schedules/${schedule.id}`), byId(schedule.id)));
  }, scaledWait(120_000));

  it.skipIf(!available)("run now starts one run at once; a backfill of the past three hours starts the three past firings; delete removes the Temporal Schedule", async () => {
    as("builder");
    const schedule = await created({ ...base, name: "hourly", intervalSeconds: 3600, timeZone: "Europe/Paris", jitterSeconds: 0 });
    const triggered = await routeOutcome(await triggerRoute.POST(apiRequest("POST", `/api/schedules/${schedule.id}/trigger`), byId(schedule.id)));
    expect(triggered).toEqual({ ok: true, data: { triggered: schedule.id } });
    await eventually(() => linkedRuns(schedule.id), (runs) => runs.length === 1, 30_000, "the triggered run");

    // An hourly interval fires on the hour: a range around the last three hours' marks holds exactly three firings
    // whatever the minute (a range of "the last three hours less a minute" held two at hh:59 and hh:00).
    const now = Date.now();
    const lastMark = Math.floor((now - 300_000) / 3_600_000) * 3_600_000;
    const range = { from: new Date(lastMark - 2 * 3_600_000 - 60_000).toISOString(), to: new Date(lastMark + 60_000).toISOString() };
    const backfilled = await routeOutcome(await backfillRoute.POST(apiRequest("POST", `/api/schedules/${schedule.id}/backfill`, range), byId(schedule.id)));
    expect(backfilled).toEqual({ ok: true, data: { backfilled: schedule.id, firings: 3 } });
    const runs = await eventually(() => linkedRuns(schedule.id), (all) => all.length === 4, 30_000, "the three backfilled runs");
    expect(new Set(runs.map((run) => run.id)).size, "each firing its own run").toBe(4);

    const tooMuch = await routeOutcome(await backfillRoute.POST(apiRequest("POST", `/api/schedules/${schedule.id}/backfill`, { from: new Date(now - 30 * 3_600_000).toISOString(), to: range.to }), byId(schedule.id)));
    expect(tooMuch, "more than 20 past firings").toMatchObject({ ok: false, status: 422, error: { issues: [{ path: "from" }] } });

    const deleted = await routeOutcome(await scheduleRoute.DELETE(apiRequest("DELETE", `/api/schedules/${schedule.id}`), byId(schedule.id)));
    expect(deleted).toEqual({ ok: true, data: { deleted: schedule.id } });
    expect(await temporalScheduleExists(h.client, schedule.id), "the Temporal Schedule is gone").toBe(false);
    expect(await h.db.schedule.count({ where: { id: schedule.id } })).toBe(0);
    expect((await linkedRuns(schedule.id)).length, "its runs stay, still linked").toBe(4);
    const gone = await routeOutcome(await scheduleRoute.GET(apiRequest("GET", `/api/schedules/${schedule.id}`), byId(schedule.id)));
    expect(gone).toMatchObject({ ok: false, status: 404 });
  }, scaledWait(120_000));

  it.skipIf(!available)("two failed runs in a row pause a schedule whose limit is 2, in Temporal too, audited, with a signed alert to the webhook", async () => {
    as("builder");
    const schedule = await created({ ...base, name: "always failing", task: "fail model", intervalSeconds: 3600, failureLimit: 2 });
    for (const n of [1, 2]) {
      await routeOutcome(await triggerRoute.POST(apiRequest("POST", `/api/schedules/${schedule.id}/trigger`), byId(schedule.id)));
      await eventually(() => rowOf(schedule.id), (row) => row.consecutiveFailures === n, 60_000, `failure ${n} recorded`);
    }
    const row = await eventually(() => rowOf(schedule.id), (r) => r.paused, 20_000, "the schedule paused");
    expect(row.pauseNote).toMatch(/^paused after 2 failed firings in a row/);
    expect(row.lastOutcome).toBe("failed");
    await eventually(async () => (await h.client.schedule.getHandle(temporalScheduleId(schedule.id)).describe()).state.paused, (p) => p, 20_000, "Temporal's schedule paused");
    expect(await h.db.auditEvent.count({ where: { action: "schedule.paused_after_failures", target: schedule.id } })).toBe(1);
    const alert = await eventually(async () => alerts.find((a) => a.body.includes(schedule.id)), (a) => a !== undefined, 20_000, "the alert delivered");
    expect(alert?.headers["x-zap-event"]).toBe("schedule.paused");
    expect(alert?.headers["x-zap-signature"], "signed like every webhook delivery").toBeTruthy();
    expect(JSON.parse(alert?.body ?? "{}")).toMatchObject({ event: "schedule.paused", schedule: { id: schedule.id, name: "always failing", failureLimit: 2 } });
    const refused = await routeOutcome(await triggerRoute.POST(apiRequest("POST", `/api/schedules/${schedule.id}/trigger`), byId(schedule.id)));
    expect(refused, "a paused schedule is not run now").toMatchObject({ ok: false, status: 409 });
  }, scaledWait(150_000));

  it.skipIf(!available)("an owner demoted to viewer: the firing is refused and recorded, no run starts", async () => {
    as("admin");
    const schedule = await created({ ...base, name: "owner demoted", intervalSeconds: 3600, failureLimit: 5 });
    await h.db.user.update({ where: { id: ids.admin }, data: { role: "viewer" } });
    try {
      as("builder");
      // The builder triggers; the firing still runs as the owner, who may no longer start runs.
      await routeOutcome(await triggerRoute.POST(apiRequest("POST", `/api/schedules/${schedule.id}/trigger`), byId(schedule.id)));
      const row = await eventually(() => rowOf(schedule.id), (r) => r.lastOutcome === "refused", 30_000, "the refusal recorded");
      expect(row.lastError).toBe("the schedule's owner admin@zap.local is a viewer and may no longer start runs");
      expect(row.consecutiveFailures).toBe(1);
      expect((await linkedRuns(schedule.id)).length).toBe(0);
      expect(await h.db.auditEvent.count({ where: { action: "schedule.fire_refused", target: schedule.id } })).toBe(1);
    } finally {
      await h.db.user.update({ where: { id: ids.admin }, data: { role: "admin" } });
    }
  }, scaledWait(60_000));

  it.skipIf(!available)("cancel_other: a firing while the previous run still works cancels that run (cancelled in the ledger) and starts the new one", async () => {
    as("builder");
    // The demo model thinks a minute before answering, so each run is still working when the next 5-second firing comes.
    const schedule = await created({ ...base, name: "newest wins", task: "think 60000\nanswer: too late", intervalSeconds: 5, overlap: "cancel_other", failureLimit: 5 });
    const [first] = await eventually(() => linkedRuns(schedule.id), (runs) => runs.length >= 1, 30_000, "the first firing's run");
    expect(first).toBeDefined();
    const second = await eventually(
      async () => (await linkedRuns(schedule.id)).find((run) => run.id !== first?.id),
      (run) => run !== undefined,
      30_000,
      "the next firing's run",
    );
    const paused = await routeOutcome(await pauseRoute.POST(apiRequest("POST", `/api/schedules/${schedule.id}/pause`, { note: "test over" }), byId(schedule.id)), "schedule");
    expect(paused).toMatchObject({ ok: true });
    const cancelled = await eventually(() => h.db.run.findUniqueOrThrow({ where: { id: first?.id ?? "" } }), (run) => run.status === "cancelled", 30_000, "the first run cancelled");
    expect(cancelled.output, "cancelled before it answered").toBeNull();
    // A firing under way when the pause landed may start one more run, seconds later on a slow machine (a fixed 2 s let
    // one start after the list was read, and it cancelled the run read as the newest): the list is read once it has
    // stood still for a while. Each run but the newest was cancelled by its successor.
    let runs = await linkedRuns(schedule.id);
    for (let settled = false; !settled; ) {
      await new Promise((resolve) => setTimeout(resolve, scaledWait(3_000)));
      const again = await linkedRuns(schedule.id);
      settled = again.length === runs.length;
      runs = again;
    }
    const newest = runs.at(-1);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(newest?.id === second?.id || runs.some((run) => run.id === second?.id), "the second firing started its run").toBe(true);
    for (const run of runs.slice(0, -1)) {
      await eventually(() => h.db.run.findUniqueOrThrow({ where: { id: run.id } }), (row) => row.status === "cancelled", 30_000, `run ${run.id} cancelled by the next firing`);
    }
    expect((await h.db.run.findUniqueOrThrow({ where: { id: newest?.id ?? "" } })).status, "the newest run still works: nothing cancelled it").not.toBe("cancelled");
    const row = await eventually(() => rowOf(schedule.id), (r) => r.lastRunId !== null, 20_000, "an outcome recorded");
    expect(row.consecutiveFailures, "a cancelled firing is no failure").toBe(0);
    await h.engine.cancelRun(newest?.id ?? "");
    await routeOutcome(await scheduleRoute.DELETE(apiRequest("DELETE", `/api/schedules/${schedule.id}`), byId(schedule.id)));
  }, scaledWait(150_000));

  it.skipIf(!available)("a viewer is refused every change with 403 and nothing changes; bad input is answered 422 naming the field", async () => {
    as("builder");
    const schedule = await created({ ...base, name: "guarded", cron: "0 3 * * *", timeZone: "America/New_York" });
    expect(schedule.nextFireTimes.length, "Temporal plans the next firings").toBeGreaterThan(0);
    const auditBefore = await h.db.auditEvent.count();
    as("viewer");
    const attempts: [string, Promise<Response>][] = [
      ["create", schedulesRoute.POST(apiRequest("POST", "/api/schedules", { ...base, name: "viewer's", intervalSeconds: 60 }), params({}))],
      ["change", scheduleRoute.PATCH(apiRequest("PATCH", `/api/schedules/${schedule.id}`, { task: "answer: mine" }), byId(schedule.id))],
      ["pause", pauseRoute.POST(apiRequest("POST", `/api/schedules/${schedule.id}/pause`, {}), byId(schedule.id))],
      ["run now", triggerRoute.POST(apiRequest("POST", `/api/schedules/${schedule.id}/trigger`), byId(schedule.id))],
      ["backfill", backfillRoute.POST(apiRequest("POST", `/api/schedules/${schedule.id}/backfill`, { from: "2026-01-01T00:00:00Z", to: "2026-01-02T00:00:00Z" }), byId(schedule.id))],
      ["delete", scheduleRoute.DELETE(apiRequest("DELETE", `/api/schedules/${schedule.id}`), byId(schedule.id))],
    ];
    for (const [what, response] of attempts) expect((await response).status, what).toBe(403);
    expect(await h.db.auditEvent.count(), "nothing audited").toBe(auditBefore);
    expect(await rowOf(schedule.id)).toMatchObject({ task: base.task, paused: false });
    expect(await h.db.schedule.count({ where: { name: "viewer's" } })).toBe(0);
    const seen = await routeOutcome(await schedulesRoute.GET(apiRequest("GET", "/api/schedules"), params({})), "schedules");
    expect(seen.ok && (seen.data as ScheduleView[]).map((s) => s.id), "a viewer sees the schedules").toContain(schedule.id);

    as("builder");
    const cases: [string, Record<string, unknown>, string][] = [
      ["a minute of 61", { ...base, name: "bad cron", cron: "61 * * * *" }, "cron"],
      ["cron and interval", { ...base, name: "both", cron: "* * * * *", intervalSeconds: 60 }, "intervalSeconds"],
      ["neither", { ...base, name: "neither" }, "cron"],
      ["an unknown zone", { ...base, name: "zone", intervalSeconds: 60, timeZone: "Mars/Olympus" }, "timeZone"],
      ["a 1-second interval", { ...base, name: "fast", intervalSeconds: 1 }, "intervalSeconds"],
      ["an unknown overlap", { ...base, name: "overlap", intervalSeconds: 60, overlap: "queue" }, "overlap"],
      ["an unknown key", { ...base, name: "key", intervalSeconds: 60, priority: "high" }, "(root)"],
      ["a graph nobody saved", { ...base, graph: "no-such-graph", name: "ghost", intervalSeconds: 60 }, "graph"],
    ];
    for (const [what, body, field] of cases) {
      const outcome = await createSchedule(body);
      expect(outcome, what).toMatchObject({ ok: false, status: 422 });
      expect(!outcome.ok && outcome.error.issues?.map((issue) => issue.path), what).toContain(field);
    }
    const badPatch = await routeOutcome(await scheduleRoute.PATCH(apiRequest("PATCH", `/api/schedules/${schedule.id}`, { intervalSeconds: 60 }), byId(schedule.id)));
    expect(!badPatch.ok && badPatch.error.issues?.map((issue) => issue.path), "the merged schedule has both").toEqual(["patch.intervalSeconds"]);
    const backwards = await routeOutcome(await backfillRoute.POST(apiRequest("POST", `/api/schedules/${schedule.id}/backfill`, { from: "2026-01-02T00:00:00Z", to: "2026-01-01T00:00:00Z" }), byId(schedule.id)));
    expect(!backwards.ok && backwards.error.issues?.map((issue) => issue.path)).toEqual(["to"]);
    expect(await h.db.schedule.count({ where: { name: { in: cases.map(([, body]) => String(body.name)) } } }), "nothing was created").toBe(0);
    const switched = await routeOutcome(await scheduleRoute.PATCH(apiRequest("PATCH", `/api/schedules/${schedule.id}`, { intervalSeconds: 600, cron: null }), byId(schedule.id)), "schedule");
    expect(switched).toMatchObject({ ok: true, data: { cron: null, intervalSeconds: 600 } });
    const described = await h.client.schedule.getHandle(temporalScheduleId(schedule.id)).describe();
    expect(described.spec.intervals?.[0]?.every, "Temporal follows the change").toBe(600_000);
  }, scaledWait(60_000));
});
