// Issue 39 §3's attacks on spend limits, each a test, through the route and the
// server action on a real database: a viewer changes no limit (403) but reads
// them; a builder, who may cap graphs, changes no workspace, user or API key
// limit, so cannot lift the cap an admin put on them, nor remove it. Nothing a
// refused request sent is saved or audited.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { singleAgentGraph, startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { doors } from "../../scripts/test-support/parity-doors";
import { actionOutcome, apiRequest, params, routeOutcome, type Outcome } from "../../scripts/test-support/parity";
import { saveAgentVersion } from "../agents/repository";
import { scaledWait } from "../../scripts/test-support/wait-scale";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/engine/server/engine", async () => (await import("../../scripts/test-support/parity-doors")).engineModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const limitsRoute = await import("@/app/api/spend-limits/route");
const limitRoute = await import("@/app/api/spend-limits/[limitId]/route");
const { setSpendLimitAction } = await import("../actions/set-spend-limit");
const { removeSpendLimitAction } = await import("../actions/remove-spend-limit");

const GRAPH = "capped-graph";
let h: EngineHarness;
const ids: Record<string, string> = {};
let workspaceLimit = "";
let builderLimit = "";

beforeAll(async () => {
  h = await startEngineHarness({ worker: false });
  doors.db = h.db;
  doors.engine = h.engine;
  doors.config = h.config;
  for (const role of ["admin", "builder", "viewer"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
  await saveAgentVersion(h.db, GRAPH, singleAgentGraph({ name: "main" }), { createdById: ids.admin ?? null });
  doors.userId = ids.admin ?? null;
  workspaceLimit = ((await setViaRoute({ scope: "workspace", period: "month", amountUsd: 100 })) as { data: { id: string } }).data.id;
  builderLimit = ((await setViaRoute({ scope: "user", scopeId: ids.builder, period: "day", amountUsd: 1 })) as { data: { id: string } }).data.id;
}, scaledWait(120_000));

afterAll(async () => h?.stop());

const as = (role: string) => {
  doors.userId = ids[role] ?? null;
};
async function setViaRoute(body: Record<string, unknown>): Promise<Outcome> {
  return routeOutcome(await limitsRoute.POST(apiRequest("POST", "/api/spend-limits", body), params({})), "limit");
}
const removeViaRoute = async (id: string) => routeOutcome(await limitRoute.DELETE(apiRequest("DELETE", `/api/spend-limits/${id}`), params({ limitId: id })));

/** The rows and audit trail, to show a refused request changed nothing. */
const snapshot = async () => ({
  limits: await h.db.spendLimit.findMany({ orderBy: { id: "asc" } }),
  audit: await h.db.auditEvent.count({ where: { action: { in: ["spend_limit.set", "spend_limit.removed"] } } }),
});

describe("spend limits: who may change them", () => {
  it("a viewer reads the limits but sets and removes none, through either door", async () => {
    as("viewer");
    const before = await snapshot();
    const listed = await routeOutcome(await limitsRoute.GET(apiRequest("GET", "/api/spend-limits"), params({})), "limits");
    expect(listed.ok && (listed.data as unknown[]).length).toBe(2);
    for (const body of [
      { scope: "graph", scopeId: GRAPH, period: "day", amountUsd: 5 },
      { scope: "workspace", period: "month", amountUsd: 1_000_000 },
    ]) {
      expect(await setViaRoute(body)).toMatchObject({ ok: false, status: 403 });
      expect(actionOutcome(await setSpendLimitAction(body))).toMatchObject({ ok: false, status: 403 });
    }
    expect(await removeViaRoute(workspaceLimit)).toMatchObject({ ok: false, status: 403 });
    expect(actionOutcome(await removeSpendLimitAction({ id: workspaceLimit }))).toMatchObject({ ok: false, status: 403 });
    expect(await snapshot()).toEqual(before);
  });

  it("a builder cannot set or remove the workspace's limit, nor lift their own user limit, nor cap an API key", async () => {
    as("builder");
    const before = await snapshot();
    const attempts = [
      { scope: "workspace", period: "month", amountUsd: 1_000_000 },
      { scope: "user", scopeId: ids.builder, period: "day", amountUsd: 1_000_000 },
      { scope: "api_key", scopeId: "any-key", period: "day", amountUsd: 1 },
    ];
    for (const body of attempts) {
      const viaRoute = await setViaRoute(body);
      expect(viaRoute, JSON.stringify(body)).toMatchObject({ ok: false, status: 403 });
      expect(actionOutcome(await setSpendLimitAction(body)), "the action refuses the same way").toEqual(viaRoute);
    }
    expect(await setViaRoute(attempts[0] ?? {})).toMatchObject({ error: { message: "Only admins change workspace, user and API key spend limits" } });
    for (const id of [workspaceLimit, builderLimit]) {
      expect(await removeViaRoute(id)).toMatchObject({ ok: false, status: 403 });
      expect(actionOutcome(await removeSpendLimitAction({ id }))).toMatchObject({ ok: false, status: 403 });
    }
    expect(await snapshot()).toEqual(before);
  });

  it("a builder sets and removes a graph's limit (audited as them)", async () => {
    as("builder");
    const set = await setViaRoute({ scope: "graph", scopeId: GRAPH, period: "day", amountUsd: 5 });
    expect(set).toMatchObject({ ok: true, data: { scope: "graph", scopeId: GRAPH, amountUsd: 5 } });
    const id = (set as { data: { id: string } }).data.id;
    expect(await removeViaRoute(id)).toEqual({ ok: true, data: { removed: id } });
    const rows = await h.db.auditEvent.findMany({ where: { target: id }, orderBy: { seq: "asc" } });
    expect(rows.map((row) => [row.action, row.actorId])).toEqual([
      ["spend_limit.set", ids.builder],
      ["spend_limit.removed", ids.builder],
    ]);
  });
});
