// Saved views of the runs list (issue 26 §4) through both doors, on SQLite and
// PostgreSQL: create, rename and delete by server action and by route give the
// same result, the same audit row and the same refusals (unknown filter, a
// query with no word, no filter at all, a name already used); each user sees
// and changes only their own views (another's id is a 404), after the built-in
// "stuck or burning" view, whose thresholds are part of its definition.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { testProviders } from "../../scripts/test-support/databases";
import { doors } from "../../scripts/test-support/parity-doors";
import { actionOutcome, apiRequest, audited, expectSameRefusal, params, routeOutcome, type Outcome } from "../../scripts/test-support/parity";
import type { SavedView } from "../views/schemas";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const viewsRoute = await import("@/app/api/views/route");
const viewRoute = await import("@/app/api/views/[id]/route");
const { createViewAction } = await import("./create-view");
const { updateViewAction } = await import("./update-view");
const { deleteViewAction } = await import("./delete-view");

const providers = await testProviders();

const dataOf = (outcome: Outcome) => {
  expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
  return (outcome as { data: SavedView }).data;
};
const blank = (view: SavedView) => ({ ...view, id: "<id>", name: "<name>", updatedAt: "<time>" });

describe.each(providers)("saved views on $provider", ({ available, create }) => {
  let h: EngineHarness;
  const ids: Record<string, string> = {};
  const as = (role: string) => {
    doors.userId = ids[role] ?? null;
  };

  beforeAll(async () => {
    if (!available) return;
    h = await startEngineHarness({ worker: false, database: await create() });
    doors.db = h.db;
    doors.config = h.config;
    for (const role of ["builder", "viewer"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
  });
  afterAll(async () => h?.stop());

  const listAs = async (role: string) => {
    as(role);
    const response = await viewsRoute.GET(apiRequest("GET", "/api/views"), params({}));
    return ((await response.json()) as { views: SavedView[] }).views;
  };

  it.skipIf(!available)("create, rename and delete: the same result and audit row through either door, and the same refusals", async () => {
    as("viewer");
    const filters = { q: "order 4417", status: "failed", tool: "lookup_order" };
    const action = await audited(h.db, async () => actionOutcome(await createViewAction({ name: `mine-${randomUUID().slice(0, 6)}`, filters })));
    const route = await audited(h.db, async () => routeOutcome(await viewsRoute.POST(apiRequest("POST", "/api/views", { name: `mine-${randomUUID().slice(0, 6)}`, filters }), params({}))));
    const [a, b] = [dataOf(action.outcome), dataOf(route.outcome)];
    expect(blank(a)).toEqual(blank(b));
    expect(a).toMatchObject({ filters, builtIn: false });
    expect(action.audit).toEqual([{ action: "view.created", actorId: ids.viewer, target: a.id }]);
    expect(route.audit).toEqual([{ action: "view.created", actorId: ids.viewer, target: b.id }]);

    for (const [what, body, path] of [
      ["an unknown filter", { name: "x1", filters: { colour: "red" } }, "filters"],
      ["a search with no word", { name: "x2", filters: { q: "*** ()" } }, "filters.q"],
      ["no filter at all", { name: "x3", filters: {} }, "filters"],
      ["a name already used", { name: a.name, filters }, null],
    ] as const) {
      const refusedRoute = await routeOutcome(await viewsRoute.POST(apiRequest("POST", "/api/views", body), params({})));
      expectSameRefusal(refusedRoute, actionOutcome(await createViewAction(body)), what);
      if (path) expect(refusedRoute.ok === false && refusedRoute.error.issues?.map((i) => i.path), what).toEqual([path]);
      else expect(refusedRoute.ok === false && refusedRoute.status, what).toBe(409);
    }

    const renamedByAction = await audited(h.db, async () => actionOutcome(await updateViewAction({ id: a.id, name: `${a.name}-renamed` })));
    const renamedByRoute = await audited(h.db, async () => routeOutcome(await viewRoute.POST(apiRequest("POST", `/api/views/${b.id}`, { name: `${b.name}-renamed` }), params({ id: b.id }))));
    expect(dataOf(renamedByAction.outcome).name).toBe(`${a.name}-renamed`);
    expect(dataOf(renamedByRoute.outcome)).toMatchObject({ name: `${b.name}-renamed`, filters });
    expect(renamedByAction.audit).toEqual([{ action: "view.updated", actorId: ids.viewer, target: a.id }]);
    expect(renamedByRoute.audit).toEqual([{ action: "view.updated", actorId: ids.viewer, target: b.id }]);

    const deletedByAction = await audited(h.db, async () => actionOutcome(await deleteViewAction({ id: a.id })));
    const deletedByRoute = await audited(h.db, async () => routeOutcome(await viewRoute.DELETE(apiRequest("DELETE", `/api/views/${b.id}`), params({ id: b.id }))));
    expect(deletedByAction.outcome).toEqual({ ok: true, data: { id: a.id, deleted: true } });
    expect(deletedByRoute.outcome).toEqual({ ok: true, data: { id: b.id, deleted: true } });
    expect(deletedByAction.audit).toEqual([{ action: "view.deleted", actorId: ids.viewer, target: a.id }]);
    expect(deletedByRoute.audit).toEqual([{ action: "view.deleted", actorId: ids.viewer, target: b.id }]);
    expect((await listAs("viewer")).filter((v) => !v.builtIn)).toEqual([]);
  });

  it.skipIf(!available)("each user sees and changes only their own views, after the built-in one", async () => {
    as("viewer");
    const own = dataOf(actionOutcome(await createViewAction({ name: "failed refunds", filters: { q: "refund", status: "failed" } })));
    const builders = await listAs("builder");
    expect(builders.map((v) => v.name)).toEqual(["stuck or burning"]);
    expect(builders[0]).toMatchObject({ builtIn: true, filters: { view: "stuck", stuckMinutes: 10, burnPerMinute: 0.5 } });
    expect(builders[0]?.description).toContain("10 min");

    as("builder");
    for (const [door, outcome] of [
      ["action rename", actionOutcome(await updateViewAction({ id: own.id, name: "taken over" }))],
      ["route rename", await routeOutcome(await viewRoute.POST(apiRequest("POST", `/api/views/${own.id}`, { name: "taken over" }), params({ id: own.id })))],
      ["action delete", actionOutcome(await deleteViewAction({ id: own.id }))],
      ["route delete", await routeOutcome(await viewRoute.DELETE(apiRequest("DELETE", `/api/views/${own.id}`), params({ id: own.id })))],
    ] as const) {
      expect(outcome.ok === false && outcome.status, `${door} of another user's view`).toBe(404);
    }
    expect((await listAs("viewer")).map((v) => v.name)).toEqual(["stuck or burning", "failed refunds"]);
  });
});
