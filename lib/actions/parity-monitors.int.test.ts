// Route/action parity for monitors (issue 26 §1): create, change and delete
// through the server action and the route give the same result and the same
// audit row; bad input is refused the same way with the field named (422), a
// viewer or approver is refused by both (403), and the reads are open to every
// role. Only "who is signed in" is the test's.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { doors } from "../../scripts/test-support/parity-doors";
import { ZapClient } from "../client/zap-client";
import { actionOutcome, apiRequest, audited, expectSameRefusal, params, routeOutcome, type Outcome } from "../../scripts/test-support/parity";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const monitorsRoute = await import("@/app/api/monitors/route");
const monitorRoute = await import("@/app/api/monitors/[monitorId]/route");
const alertsRoute = await import("@/app/api/monitors/alerts/route");
const previewRoute = await import("@/app/api/monitors/preview/route");
const { createMonitorAction } = await import("./create-monitor");
const { updateMonitorAction } = await import("./update-monitor");
const { deleteMonitorAction } = await import("./delete-monitor");

/** The client, its requests answered in-process by the monitors' routes as the signed-in user (the key header is dropped). */
const client = new ZapClient({
  baseUrl: "http://127.0.0.1",
  apiKey: "zap_in-process-test-key-0123456789",
  fetch: async (input, init) => {
    const url = new URL(String(input));
    const request = apiRequest(init?.method ?? "GET", `${url.pathname}${url.search}`, init?.body ? JSON.parse(String(init.body)) : undefined);
    const [, , , id, rest] = url.pathname.split("/");
    if (id === "alerts") return alertsRoute.GET(request, params({}));
    if (id && !rest) {
      const handler = { GET: monitorRoute.GET, PATCH: monitorRoute.PATCH, DELETE: monitorRoute.DELETE }[request.method as "GET" | "PATCH" | "DELETE"];
      return handler(request, params({ monitorId: id }));
    }
    return request.method === "POST" ? monitorsRoute.POST(request, params({})) : monitorsRoute.GET(request, params({}));
  },
});

let h: EngineHarness;
const ids: Record<string, string> = {};
beforeAll(async () => {
  h = await startEngineHarness({ worker: false });
  doors.db = h.db;
  doors.config = h.config;
  for (const role of ["admin", "builder", "approver", "viewer"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
});
afterAll(async () => h?.stop());

const as = (role: string) => {
  doors.userId = ids[role] ?? null;
};
const create = (name: string) => ({ name, series: "runs_failed", comparator: "gt", threshold: 5, windowMinutes: 15, filters: { graph: "support-triage" } });
const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

/** Ids, names and times differ between two calls by nature. */
function normalized(outcome: Outcome): unknown {
  return JSON.parse(JSON.stringify(outcome), (key: string, value: unknown) => (["id", "name", "createdAt", "updatedAt"].includes(key) ? "<differs>" : value));
}

const idOf = (outcome: Outcome) => (outcome.ok ? (outcome.data as { id: string }).id : "");

describe("monitors through both doors", () => {
  it("create, change and delete: the same result and audit row; deleted once, both doors say it is gone", async () => {
    as("builder");
    const viaAction = await audited(h.db, async () => actionOutcome(await createMonitorAction(create(unique("a")))));
    const viaRoute = await audited(h.db, async () => routeOutcome(await monitorsRoute.POST(apiRequest("POST", "/api/monitors", create(unique("b"))), params({})), "monitor"));
    expect(viaAction.outcome.ok, JSON.stringify(viaAction.outcome)).toBe(true);
    expect(normalized(viaAction.outcome)).toEqual(normalized(viaRoute.outcome));
    const [a, b] = [idOf(viaAction.outcome), idOf(viaRoute.outcome)];
    expect(viaAction.audit).toEqual([{ action: "monitor.created", actorId: ids.builder, target: a }]);
    expect(viaRoute.audit).toEqual([{ action: "monitor.created", actorId: ids.builder, target: b }]);

    const patch = { threshold: 0.2, stat: "rate", enabled: false };
    const changedByAction = await audited(h.db, async () => actionOutcome(await updateMonitorAction({ id: a, patch })));
    const changedByRoute = await audited(h.db, async () => routeOutcome(await monitorRoute.PATCH(apiRequest("PATCH", `/api/monitors/${b}`, patch), params({ monitorId: b })), "monitor"));
    expect(changedByAction.outcome).toMatchObject({ ok: true, data: { threshold: 0.2, stat: "rate", enabled: false } });
    expect(normalized(changedByAction.outcome)).toEqual(normalized(changedByRoute.outcome));
    expect(changedByRoute.audit).toEqual([{ action: "monitor.updated", actorId: ids.builder, target: b }]);

    const deletedByAction = await audited(h.db, async () => actionOutcome(await deleteMonitorAction({ id: a })));
    const deletedByRoute = await audited(h.db, async () => routeOutcome(await monitorRoute.DELETE(apiRequest("DELETE", `/api/monitors/${b}`), params({ monitorId: b }))));
    expect(deletedByAction.outcome).toEqual({ ok: true, data: { deleted: a } });
    expect(deletedByRoute.outcome).toEqual({ ok: true, data: { deleted: b } });
    expect(deletedByRoute.audit).toEqual([{ action: "monitor.deleted", actorId: ids.builder, target: b }]);
    const again = await routeOutcome(await monitorRoute.DELETE(apiRequest("DELETE", `/api/monitors/${a}`), params({ monitorId: a })));
    expectSameRefusal(again, actionOutcome(await deleteMonitorAction({ id: a })), "a monitor already deleted");
    expect(again).toMatchObject({ status: 404 });
  });

  it("refuses the same way, naming the field: a stat that does not fit, an unknown key, a name in use, a bad merged patch, a viewer and an approver", async () => {
    as("builder");
    const taken = unique("taken");
    expect((await createMonitorAction(create(taken))).ok).toBe(true);
    const cases: [string, Record<string, unknown>, number, string][] = [
      ["a p95 of a counter", { ...create(unique("c")), stat: "p95" }, 422, "stat"],
      ["an unknown key", { ...create(unique("d")), severity: "high" }, 422, "(root)"],
      ["a window of none", { ...create(unique("e")), windowMinutes: 0 }, 422, "windowMinutes"],
      ["a name in use", create(taken), 409, ""],
    ];
    for (const [what, body, status, field] of cases) {
      const route = await routeOutcome(await monitorsRoute.POST(apiRequest("POST", "/api/monitors", body), params({})));
      expectSameRefusal(route, actionOutcome(await createMonitorAction(body)), what);
      expect(route, what).toMatchObject({ ok: false, status });
      if (status === 422) expect(!route.ok && route.error.issues?.map((i) => i.path), what).toContain(field);
    }
    const id = idOf(actionOutcome(await createMonitorAction(create(unique("f")))));
    const route = await routeOutcome(await monitorRoute.PATCH(apiRequest("PATCH", `/api/monitors/${id}`, { series: "run_latency" }), params({ monitorId: id })), "monitor");
    expect(route, "a new series with the default stat is accepted").toMatchObject({ ok: true, data: { series: "run_latency", stat: null } });
    const bad = await routeOutcome(await monitorRoute.PATCH(apiRequest("PATCH", `/api/monitors/${id}`, { stat: "sum" }), params({ monitorId: id })));
    expectSameRefusal(bad, actionOutcome(await updateMonitorAction({ id, patch: { stat: "sum" } })), "a sum of a latency");
    expect(!bad.ok && bad.error.issues?.map((i) => i.path)).toEqual(["patch.stat"]);

    for (const role of ["viewer", "approver"]) {
      as(role);
      const body = create(unique("g"));
      const refused = await audited(h.db, async () => routeOutcome(await monitorsRoute.POST(apiRequest("POST", "/api/monitors", body), params({}))));
      expectSameRefusal(refused.outcome, actionOutcome(await createMonitorAction(body)), `a ${role}`);
      expect(refused.outcome).toMatchObject({ status: 403 });
      expect(refused.audit).toEqual([]);
    }
  });

  it("every role reads monitors and alerts; the preview names a bad parameter", async () => {
    as("viewer");
    const list = (await (await monitorsRoute.GET(apiRequest("GET", "/api/monitors"), params({}))).json()) as { monitors: { name: string }[] };
    expect(list.monitors.length).toBeGreaterThan(0);
    const alerts = await alertsRoute.GET(apiRequest("GET", "/api/monitors/alerts?state=firing"), params({}));
    expect(alerts.status).toBe(200);
    expect(await alerts.json()).toEqual({ alerts: [] });
    const badState = await alertsRoute.GET(apiRequest("GET", "/api/monitors/alerts?state=burning"), params({}));
    expect(badState.status).toBe(422);
    const preview = await previewRoute.GET(apiRequest("GET", "/api/monitors/preview?series=approvals_oldest_wait&windowMinutes=30"), params({}));
    expect(await preview.json()).toEqual({ value: 0 });
    const badWindow = await previewRoute.GET(apiRequest("GET", "/api/monitors/preview?series=cost&windowMinutes=soon"), params({}));
    expect(badWindow.status).toBe(422);
    expect(JSON.stringify(await badWindow.json())).toContain("windowMinutes");
  });

  it("the TypeScript client creates, reads, changes, lists alerts of and deletes a monitor through the same routes", async () => {
    as("builder");
    const created = await client.createMonitor({ name: unique("client"), series: "cost", comparator: "gt", threshold: 5, windowMinutes: 60 });
    expect(created).toMatchObject({ series: "cost", enabled: true, firing: null });
    expect((await client.listMonitors()).map((m) => m.id)).toContain(created.id);
    expect(await client.updateMonitor(created.id, { enabled: false })).toMatchObject({ id: created.id, enabled: false });
    expect(await client.listAlerts({ monitorId: created.id })).toEqual([]);
    await expect(client.createMonitor({ name: unique("bad"), series: "cost", comparator: "gt", threshold: 5, windowMinutes: 60, stat: "p95" })).rejects.toMatchObject({ status: 422 });
    expect(await client.deleteMonitor(created.id)).toEqual({ deleted: created.id });
  });
});
