// Route/action/client parity for schedules (issue 39 §1, one door): create,
// change, pause, resume and delete through the server action, the route and the
// TypeScript client give the same result and the same audit row; bad input is
// refused the same way with the field named (422), a viewer or approver is
// refused by both (403), and the reads are open to every role. Real Temporal
// (the schedules are created there), no worker: nothing fires.
import { randomUUID } from "node:crypto";
import type { Client } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { singleAgentGraph, startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { doors } from "../../scripts/test-support/parity-doors";
import { ZapClient } from "../client/zap-client";
import { actionOutcome, apiRequest, audited, expectSameRefusal, params, routeOutcome, type Outcome } from "../../scripts/test-support/parity";
import { saveAgentVersion } from "../agents/repository";
import { temporalScheduleExists, temporalScheduleId } from "../schedules/temporal";
import { scaledWait } from "../../scripts/test-support/wait-scale";

const temporal = vi.hoisted(() => ({ client: null as Client | null }));
vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("@/lib/temporal/server/client", () => ({ getTemporalClient: () => temporal.client }));
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const schedulesRoute = await import("@/app/api/schedules/route");
const scheduleRoute = await import("@/app/api/schedules/[scheduleId]/route");
const pauseRoute = await import("@/app/api/schedules/[scheduleId]/pause/route");
const resumeRoute = await import("@/app/api/schedules/[scheduleId]/resume/route");
const { createScheduleAction } = await import("./create-schedule");
const { updateScheduleAction } = await import("./update-schedule");
const { pauseScheduleAction } = await import("./pause-schedule");
const { resumeScheduleAction } = await import("./resume-schedule");
const { deleteScheduleAction } = await import("./delete-schedule");

/** The client, its requests answered in-process by the schedules' routes as the signed-in user. */
const client = new ZapClient({
  baseUrl: "http://127.0.0.1",
  apiKey: "zap_in-process-test-key-0123456789",
  fetch: async (input, init) => {
    const url = new URL(String(input));
    const request = apiRequest(init?.method ?? "GET", `${url.pathname}${url.search}`, init?.body ? JSON.parse(String(init.body)) : undefined);
    const [, , , id, verb] = url.pathname.split("/");
    if (!id) return request.method === "POST" ? schedulesRoute.POST(request, params({})) : schedulesRoute.GET(request, params({}));
    const p = params({ scheduleId: id });
    if (verb === "pause") return pauseRoute.POST(request, p);
    if (verb === "resume") return resumeRoute.POST(request, p);
    return { GET: scheduleRoute.GET, PATCH: scheduleRoute.PATCH, DELETE: scheduleRoute.DELETE }[request.method as "GET" | "PATCH" | "DELETE"](request, p);
  },
});

const GRAPH = "parity-scheduled";
let h: EngineHarness;
const ids: Record<string, string> = {};
beforeAll(async () => {
  h = await startEngineHarness({ worker: false });
  doors.db = h.db;
  doors.config = h.config;
  temporal.client = h.client;
  for (const role of ["admin", "builder", "approver", "viewer"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
  await saveAgentVersion(h.db, GRAPH, singleAgentGraph({ name: "main" }), { createdById: ids.builder });
}, scaledWait(60_000));
afterAll(async () => {
  for (const row of (await h?.db.schedule.findMany()) ?? []) await h.client.schedule.getHandle(temporalScheduleId(row.id)).delete().catch(() => undefined);
  await h?.stop();
});

const as = (role: string) => {
  doors.userId = ids[role] ?? null;
};
const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;
const create = (name: string) => ({ name, graph: GRAPH, intervalSeconds: 86_400, task: "answer: nightly", timeZone: "Europe/Paris" });

/** Ids, names, times and Temporal's planned firings differ between two calls by nature. */
function normalized(outcome: Outcome): unknown {
  return JSON.parse(JSON.stringify(outcome), (key: string, value: unknown) => (["id", "name", "createdAt", "updatedAt", "nextFireTimes"].includes(key) ? "<differs>" : value));
}
const idOf = (outcome: Outcome) => (outcome.ok ? (outcome.data as { id: string }).id : "");

describe("schedules through every door", () => {
  it("create, change, pause, resume and delete: the same result and audit row by action, route and client", async () => {
    as("builder");
    const viaAction = await audited(h.db, async () => actionOutcome(await createScheduleAction(create(unique("a")))));
    const viaRoute = await audited(h.db, async () => routeOutcome(await schedulesRoute.POST(apiRequest("POST", "/api/schedules", create(unique("b"))), params({})), "schedule"));
    const viaClient = await audited(h.db, async () => ({ ok: true, data: await client.createSchedule(create(unique("c"))) }));
    expect(viaAction.outcome.ok, JSON.stringify(viaAction.outcome)).toBe(true);
    expect(normalized(viaAction.outcome)).toEqual(normalized(viaRoute.outcome));
    expect(normalized(viaClient.outcome)).toEqual(normalized(viaRoute.outcome));
    const [a, b, c] = [idOf(viaAction.outcome), idOf(viaRoute.outcome), idOf(viaClient.outcome)];
    expect(viaAction.audit).toEqual([{ action: "schedule.created", actorId: ids.builder, target: a }]);
    expect(viaRoute.audit).toEqual([{ action: "schedule.created", actorId: ids.builder, target: b }]);
    expect(viaClient.audit).toEqual([{ action: "schedule.created", actorId: ids.builder, target: c }]);
    for (const id of [a, b, c]) expect(await temporalScheduleExists(h.client, id), "each door creates the Temporal Schedule").toBe(true);

    const patch = { cron: "30 6 * * 1-5", intervalSeconds: null, overlap: "buffer_one" };
    const changedByAction = await audited(h.db, async () => actionOutcome(await updateScheduleAction({ id: a, patch })));
    const changedByRoute = await audited(h.db, async () => routeOutcome(await scheduleRoute.PATCH(apiRequest("PATCH", `/api/schedules/${b}`, patch), params({ scheduleId: b })), "schedule"));
    expect(changedByAction.outcome).toMatchObject({ ok: true, data: { cron: "30 6 * * 1-5", intervalSeconds: null, overlap: "buffer_one" } });
    expect(normalized(changedByAction.outcome)).toEqual(normalized(changedByRoute.outcome));
    expect(changedByRoute.audit).toEqual([{ action: "schedule.updated", actorId: ids.builder, target: b }]);

    const pausedByAction = await audited(h.db, async () => actionOutcome(await pauseScheduleAction({ id: a, note: "holiday" })));
    const pausedByClient = await audited(h.db, async () => ({ ok: true, data: await client.pauseSchedule(b, "holiday") }));
    expect(normalized(pausedByAction.outcome)).toEqual(normalized(pausedByClient.outcome));
    expect(pausedByClient.audit).toEqual([{ action: "schedule.paused", actorId: ids.builder, target: b }]);
    const resumedByAction = actionOutcome(await resumeScheduleAction({ id: a }));
    const resumedByRoute = await routeOutcome(await resumeRoute.POST(apiRequest("POST", `/api/schedules/${b}/resume`), params({ scheduleId: b })), "schedule");
    expect(normalized(resumedByAction)).toEqual(normalized(resumedByRoute));

    const deletedByAction = await audited(h.db, async () => actionOutcome(await deleteScheduleAction({ id: a })));
    const deletedByClient = await audited(h.db, async () => ({ ok: true, data: await client.deleteSchedule(b) }));
    expect(deletedByAction.outcome).toEqual({ ok: true, data: { deleted: a } });
    expect(deletedByClient.outcome).toEqual({ ok: true, data: { deleted: b } });
    expect(deletedByClient.audit).toEqual([{ action: "schedule.deleted", actorId: ids.builder, target: b }]);
    expect(await temporalScheduleExists(h.client, a)).toBe(false);
    const again = await routeOutcome(await scheduleRoute.DELETE(apiRequest("DELETE", `/api/schedules/${a}`), params({ scheduleId: a })));
    expectSameRefusal(again, actionOutcome(await deleteScheduleAction({ id: a })), "a schedule already deleted");
    expect(again).toMatchObject({ status: 404 });
    expect((await client.listSchedules()).map((s) => s.id)).toContain(c);
  }, scaledWait(60_000));

  it("refuses the same way, naming the field; a viewer and an approver are refused by both doors; everyone reads", async () => {
    as("builder");
    const taken = unique("taken");
    expect((await createScheduleAction(create(taken))).ok).toBe(true);
    const cases: [string, Record<string, unknown>, number, string][] = [
      ["a bad cron", { ...create(unique("d")), intervalSeconds: null, cron: "* * * *" }, 422, "cron"],
      ["an unknown key", { ...create(unique("e")), owner: "someone" }, 422, "(root)"],
      ["a jitter of two hours", { ...create(unique("f")), jitterSeconds: 7200 }, 422, "jitterSeconds"],
      ["a name in use", create(taken), 409, ""],
    ];
    for (const [what, body, status, field] of cases) {
      const route = await routeOutcome(await schedulesRoute.POST(apiRequest("POST", "/api/schedules", body), params({})));
      expectSameRefusal(route, actionOutcome(await createScheduleAction(body)), what);
      expect(route, what).toMatchObject({ ok: false, status });
      if (status === 422) expect(!route.ok && route.error.issues?.map((i) => i.path), what).toContain(field);
    }
    for (const role of ["viewer", "approver"]) {
      as(role);
      const body = create(unique("g"));
      const refused = await audited(h.db, async () => routeOutcome(await schedulesRoute.POST(apiRequest("POST", "/api/schedules", body), params({}))));
      expectSameRefusal(refused.outcome, actionOutcome(await createScheduleAction(body)), `a ${role}'s create`);
      expect(refused.outcome).toMatchObject({ ok: false, status: 403 });
      expect(refused.audit).toEqual([]);
      const listed = await routeOutcome(await schedulesRoute.GET(apiRequest("GET", "/api/schedules"), params({})), "schedules");
      expect(listed.ok && (listed.data as { name: string }[]).map((s) => s.name), `a ${role} reads the list`).toContain(taken);
    }
  }, scaledWait(60_000));
});
