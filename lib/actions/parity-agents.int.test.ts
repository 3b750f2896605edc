// Route/action parity for the operations on saved agent graphs (issue 15 §1):
// create, import, save a version, restore one, promote a draft, duplicate,
// archive and unarchive. Each goes through its server action and its route handler with the
// same input, over the real session check and a real database: same result,
// same audit row (action, actor, target), same refusal for bad input, unknown
// keys and a role without the permission. Only "who is signed in" is the test's.
import { randomUUID } from "node:crypto";
import type { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { doors } from "../../scripts/test-support/parity-doors";
import { actionOutcome, apiRequest, audited, expectSameRefusal, params, routeOutcome, type Outcome } from "../../scripts/test-support/parity";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const versionsRoute = await import("@/app/api/agents/[name]/versions/route");
const agentsRoute = await import("@/app/api/agents/route");
const importRoute = await import("@/app/api/agents/import/route");
const duplicateRoute = await import("@/app/api/agents/[name]/duplicate/route");
const archiveRoute = await import("@/app/api/agents/[name]/archive/route");
const unarchiveRoute = await import("@/app/api/agents/[name]/unarchive/route");
const restoreRoute = await import("@/app/api/agents/[name]/versions/[version]/restore/route");
const { createAgentAction } = await import("./create-agent");
const { saveAgentVersionAction } = await import("./save-agent-version");
const { importAgentAction } = await import("./import-agent");
const { duplicateAgentAction } = await import("./duplicate-agent");
const { archiveAgentAction } = await import("./archive-agent");
const { restoreAgentVersionAction } = await import("./restore-agent-version");
const { promoteAgentVersionAction } = await import("./promote-agent-version");

let h: EngineHarness;
const ids: Record<string, string> = {};
beforeAll(async () => {
  h = await startEngineHarness({ worker: false });
  doors.db = h.db;
  doors.config = h.config;
  for (const role of ["admin", "builder", "viewer"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
});
afterAll(async () => h?.stop());

const as = (role: string) => {
  doors.userId = ids[role] ?? null;
};
const unique = (prefix: string) => `${prefix}_${randomUUID().slice(0, 8)}`;

/** Values that differ between two calls by nature (times, names) are blanked before comparing. */
function normalized(outcome: Outcome, differing: readonly string[]): unknown {
  return JSON.parse(JSON.stringify(outcome), (key: string, value: unknown) => (differing.includes(key) ? "<differs>" : value));
}

describe("save a version", () => {
  const graph = { entryAgent: "main", agents: [{ name: "main", model: "demo/test", systemPrompt: "Saved through both doors." }] };
  const newAgent = async () => {
    const name = unique("parity-save").replace(/_/g, "-");
    const created = await createAgentAction({ name, template: "blank" });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    return name;
  };
  const viaAction = (name: string, body: Record<string, unknown>) => async () => actionOutcome(await saveAgentVersionAction({ name, ...body }));
  const viaRoute = (name: string, body: Record<string, unknown>) => async () =>
    routeOutcome(await versionsRoute.POST(apiRequest("POST", `/api/agents/${name}/versions`, body), params({ name })), "version");

  it("the same graph gives the same new version and the same audit row", async () => {
    as("builder");
    const [a, b] = [await newAgent(), await newAgent()];
    const body = { baseVersion: 1, message: "through both doors", graph };
    const action = await audited(h.db, viaAction(a, body));
    const route = await audited(h.db, viaRoute(b, body));
    expect(action.outcome.ok, JSON.stringify(action.outcome)).toBe(true);
    expect(normalized(action.outcome, ["id", "createdAt"])).toEqual(normalized(route.outcome, ["id", "createdAt"]));
    expect(action.audit).toEqual([{ action: "agent.version_saved", actorId: ids.builder, target: a }]);
    expect(route.audit).toEqual([{ action: "agent.version_saved", actorId: ids.builder, target: b }]);
  });

  it("refuses the same way: invalid graph, stale base, unknown key, a viewer", async () => {
    as("builder");
    const [a, b] = [await newAgent(), await newAgent()];
    const cases: [string, Record<string, unknown>][] = [
      ["an invalid graph", { baseVersion: 1, graph: { entryAgent: "nobody", agents: [{ name: "main" }] } }],
      ["a stale base", { baseVersion: 7, graph }],
      ["a base that is not a number", { baseVersion: "one", graph }],
      ["an unknown key", { baseVersion: 1, graph, publish: true }],
    ];
    for (const [what, body] of cases) {
      const action = await audited(h.db, viaAction(a, body));
      const route = await audited(h.db, viaRoute(b, body));
      expectSameRefusal(route.outcome, action.outcome, what);
      expect([...action.audit, ...route.audit], `${what}: nothing audited`).toEqual([]);
    }
    as("viewer");
    expectSameRefusal(await viaRoute(b, { baseVersion: 1, graph })(), await viaAction(a, { baseVersion: 1, graph })(), "a viewer");
  });
});

describe("saved agents: create, import, duplicate, restore, archive", () => {
  const graph = { entryAgent: "main", agents: [{ name: "main", model: "demo/test", systemPrompt: "Made through both doors." }] };
  const name = (prefix: string) => unique(prefix).replace(/_/g, "-");
  const file = JSON.stringify({ name: "exported", version: 1, exportedAt: new Date().toISOString(), graph });
  /** Version summaries differ by creation time only (author, message, number and runs must match). */
  const differing = ["createdAt"];
  /** `unwrap`: the route's envelope key (only the save route has one, `{ version }`, kept for its callers). */
  const post = async <P>(route: { POST: (request: NextRequest, context: { params: Promise<P> }) => Promise<Response> }, path: string, body: unknown, routeParams: P, unwrap?: string) =>
    routeOutcome(await route.POST(apiRequest("POST", path, body), params(routeParams)), unwrap);

  it("each operation gives the same result and the same audit row through its route and its action", async () => {
    as("builder");
    const [a, b] = [name("pa"), name("pb")];
    type Step = [what: string, viaAction: () => Promise<Outcome>, viaRoute: () => Promise<Outcome>, audit: [string, string, string]];
    const steps: Step[] = [
      ["create", async () => actionOutcome(await createAgentAction({ name: a, template: "blank" })), () => post(agentsRoute, "/api/agents", { name: b, template: "blank" }, {}), ["agent.created", a, b]],
      ["save", async () => actionOutcome(await saveAgentVersionAction({ name: a, baseVersion: 1, graph })), () => post(versionsRoute, `/api/agents/${b}/versions`, { baseVersion: 1, graph }, { name: b }, "version"), ["agent.version_saved", a, b]],
      [
        "restore",
        async () => actionOutcome(await restoreAgentVersionAction({ name: a, version: 1, baseVersion: 2 })),
        () => post(restoreRoute, `/api/agents/${b}/versions/1/restore`, { baseVersion: 2 }, { name: b, version: "1" }),
        ["agent.version_restored", a, b],
      ],
      ["import", async () => actionOutcome(await importAgentAction({ name: `${a}-i`, json: file })), () => post(importRoute, "/api/agents/import", { name: `${b}-i`, json: file }, {}), ["agent.imported", `${a}-i`, `${b}-i`]],
      [
        "duplicate",
        async () => actionOutcome(await duplicateAgentAction({ name: a, newName: `${a}-d` })),
        () => post(duplicateRoute, `/api/agents/${b}/duplicate`, { newName: `${b}-d` }, { name: b }),
        ["agent.duplicated", `${a}-d`, `${b}-d`],
      ],
      ["archive", async () => actionOutcome(await archiveAgentAction({ name: a, archived: true })), () => post(archiveRoute, `/api/agents/${b}/archive`, undefined, { name: b }), ["agent.archived", a, b]],
      ["unarchive", async () => actionOutcome(await archiveAgentAction({ name: a, archived: false })), () => post(unarchiveRoute, `/api/agents/${b}/unarchive`, undefined, { name: b }), ["agent.unarchived", a, b]],
    ];
    for (const [what, action, route, [auditAction, targetA, targetB]] of steps) {
      const viaAction = await audited(h.db, action);
      const viaRoute = await audited(h.db, route);
      expect(viaAction.outcome.ok, `${what}: ${JSON.stringify(viaAction.outcome)}`).toBe(true);
      // Each door acts on its own agent: with a's name read as b's, the answers must be the same.
      const asB = (o: Outcome): Outcome => JSON.parse(JSON.stringify(o).replaceAll(a, b)) as Outcome;
      expect(normalized(asB(viaAction.outcome), differing), what).toEqual(normalized(viaRoute.outcome, differing));
      expect(viaAction.audit, what).toEqual([{ action: auditAction, actorId: ids.builder, target: targetA }]);
      expect(viaRoute.audit, what).toEqual([{ action: auditAction, actorId: ids.builder, target: targetB }]);
    }
    expect(await h.db.agentVersion.count({ where: { agent: { name: b } } }), "created, saved, restored: three versions").toBe(3);
  });

  it("refuses the same way: a taken name, a bad file, a stale base, no such agent or version, a malformed path, a viewer", async () => {
    as("builder");
    const [a, b] = [name("ra"), name("rb")];
    for (const agent of [a, b]) expect((await createAgentAction({ name: agent, template: "blank" })).ok).toBe(true);
    const missing = name("missing");
    const cases: [string, () => Promise<Outcome>, () => Promise<Outcome>][] = [
      ["create: a taken name", () => post(agentsRoute, "/api/agents", { name: b }, {}), async () => actionOutcome(await createAgentAction({ name: b }))],
      ["create: no such template", () => post(agentsRoute, "/api/agents", { name: name("t"), template: "nope" }, {}), async () => actionOutcome(await createAgentAction({ name: name("t"), template: "nope" }))],
      ["create: an unknown key", () => post(agentsRoute, "/api/agents", { name: name("u"), owner: "me" }, {}), async () => actionOutcome(await createAgentAction({ name: name("u"), owner: "me" }))],
      ["import: not an agent graph", () => post(importRoute, "/api/agents/import", { name: name("i"), json: "{}" }, {}), async () => actionOutcome(await importAgentAction({ name: name("i"), json: "{}" }))],
      ["duplicate: no such agent", () => post(duplicateRoute, `/api/agents/${missing}/duplicate`, { newName: name("d") }, { name: missing }), async () => actionOutcome(await duplicateAgentAction({ name: missing, newName: name("d") }))],
      ["duplicate: onto a taken name", () => post(duplicateRoute, `/api/agents/${b}/duplicate`, { newName: a }, { name: b }), async () => actionOutcome(await duplicateAgentAction({ name: b, newName: a }))],
      ["restore: a stale base", () => post(restoreRoute, `/api/agents/${b}/versions/1/restore`, { baseVersion: 7 }, { name: b, version: "1" }), async () => actionOutcome(await restoreAgentVersionAction({ name: b, version: 1, baseVersion: 7 }))],
      ["restore: no such version", () => post(restoreRoute, `/api/agents/${b}/versions/9/restore`, { baseVersion: 1 }, { name: b, version: "9" }), async () => actionOutcome(await restoreAgentVersionAction({ name: b, version: 9, baseVersion: 1 }))],
      ["restore: a version that is not a number", () => post(restoreRoute, `/api/agents/${b}/versions/one/restore`, { baseVersion: 1 }, { name: b, version: "one" }), async () => actionOutcome(await restoreAgentVersionAction({ name: b, version: "one", baseVersion: 1 }))],
      ["archive: no such agent", () => post(archiveRoute, `/api/agents/${missing}/archive`, undefined, { name: missing }), async () => actionOutcome(await archiveAgentAction({ name: missing, archived: true }))],
      ["archive: a name with a dot", () => post(archiveRoute, "/api/agents/a.b/archive", undefined, { name: "a.b" }), async () => actionOutcome(await archiveAgentAction({ name: "a.b", archived: true }))],
    ];
    for (const [what, route, action] of cases) {
      const viaRoute = await audited(h.db, route);
      const viaAction = await audited(h.db, action);
      expectSameRefusal(viaRoute.outcome, viaAction.outcome, what);
      expect([...viaRoute.audit, ...viaAction.audit], `${what}: nothing audited`).toEqual([]);
    }
    // A missing saved agent reads the same sentence here as at launch.
    expect(await post(archiveRoute, `/api/agents/${missing}/archive`, undefined, { name: missing })).toMatchObject({ status: 404, error: { message: `There is no saved agent named "${missing}"` } });
    expect(await post(restoreRoute, `/api/agents/${b}/versions/9/restore`, { baseVersion: 1 }, { name: b, version: "9" })).toMatchObject({ status: 404, error: { message: `The saved agent "${b}" has no version 9` } });
    as("viewer");
    expectSameRefusal(await post(agentsRoute, "/api/agents", { name: name("v") }, {}), actionOutcome(await createAgentAction({ name: name("v") })), "a viewer creating");
    expectSameRefusal(await post(archiveRoute, `/api/agents/${b}/archive`, undefined, { name: b }), actionOutcome(await archiveAgentAction({ name: b, archived: true })), "a viewer archiving");
  });
});

describe("promote a draft", () => {
  const promoteRoute = () => import("@/app/api/agents/[name]/versions/[version]/promote/route");
  const graph = { entryAgent: "main", agents: [{ name: "main", model: "demo/test", systemPrompt: "A draft." }] };
  /** An agent with v1 and a draft v2 on top of it, as the playground saves one. */
  const withDraft = async () => {
    const agent = unique("promote").replace(/_/g, "-");
    expect((await createAgentAction({ name: agent, template: "blank" })).ok).toBe(true);
    const { appendVersion } = await import("../agents/server/store");
    await appendVersion(h.db, agent, { baseVersion: 1, graph, message: "a draft", draft: true }, { id: ids.builder! });
    return agent;
  };
  const viaAction = (agent: string, version: unknown) => async () => actionOutcome(await promoteAgentVersionAction({ name: agent, version }));
  const viaRoute = (agent: string, version: string) => async () =>
    routeOutcome(await (await promoteRoute()).POST(apiRequest("POST", `/api/agents/${agent}/versions/${version}/promote`), params({ name: agent, version })));
  const defaultOf = async (agent: string) => (await h.db.agentVersion.findFirstOrThrow({ where: { agent: { name: agent }, draft: false }, orderBy: { version: "desc" } })).version;

  it("makes the draft the default through either door, with the same result and audit row", async () => {
    as("builder");
    const [a, b] = [await withDraft(), await withDraft()];
    expect([await defaultOf(a), await defaultOf(b)], "a draft is no default").toEqual([1, 1]);
    const action = await audited(h.db, viaAction(a, 2));
    const route = await audited(h.db, viaRoute(b, "2"));
    expect(action.outcome.ok, JSON.stringify(action.outcome)).toBe(true);
    expect(normalized(action.outcome, ["createdAt", "promotedAt"])).toEqual(normalized(route.outcome, ["createdAt", "promotedAt"]));
    expect(action.outcome).toMatchObject({ data: { version: 2, draft: false, isDefault: true } });
    expect(action.audit).toEqual([{ action: "agent.version_promoted", actorId: ids.builder, target: a }]);
    expect(route.audit).toEqual([{ action: "agent.version_promoted", actorId: ids.builder, target: b }]);
    expect([await defaultOf(a), await defaultOf(b)]).toEqual([2, 2]);
  });

  it("refuses the same way: no draft, a newer default, no such version, a malformed number, a viewer", async () => {
    as("builder");
    const [a, b] = [await withDraft(), await withDraft()];
    const cases: [string, string, unknown, number][] = [
      ["not a draft", "1", 1, 409],
      ["no such version", "9", 9, 404],
      ["a version that is not a number", "two", "two", 422],
    ];
    for (const [what, path, version, status] of cases) {
      const viaR = await audited(h.db, viaRoute(b, path));
      // Refusals change nothing: both doors ask about the same agent (its name is in the 404's sentence).
      const viaA = await audited(h.db, viaAction(b, version));
      expectSameRefusal(viaR.outcome, viaA.outcome, what);
      expect(viaR.outcome.ok === false && viaR.outcome.status, what).toBe(status);
      expect([...viaR.audit, ...viaA.audit], `${what}: nothing audited`).toEqual([]);
    }
    // A designer save on top of v1 publishes v3 while the draft v2 waits: promoting v2 now would drop v3's changes.
    for (const agent of [a, b]) expect((await saveAgentVersionAction({ name: agent, baseVersion: 1, message: "published", graph })).ok, "a draft never makes a designer save stale").toBe(true);
    const stale = await viaRoute(b, "2")();
    expectSameRefusal(stale, await viaAction(a, 2)(), "a newer default");
    expect(stale).toMatchObject({ ok: false, status: 409 });
    expect(stale.ok === false && stale.error.message).toContain(`Not promoted: version 3 was saved after draft 2`);
    expect(await defaultOf(b)).toBe(3);
    as("viewer");
    expectSameRefusal(await viaRoute(b, "2")(), await viaAction(a, 2)(), "a viewer");
  });
});
