// Route/action parity for the operations that need no worker (issue 15 §1):
// managing users, the MCP registry and the workspace policy (saved agents are
// in parity-agents.int.test.ts).
// Each goes through its server action and its route handler with the same
// input, over the real session check and a real database: same result, same
// audit row (action, actor, target), same refusal for bad input, unknown keys
// and a role without the permission. Only "who is signed in" is the test's.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { doors } from "../../scripts/test-support/parity-doors";
import { actionOutcome, apiRequest, audited, expectSameRefusal, params, routeOutcome, type Outcome } from "../../scripts/test-support/parity";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const usersRoute = await import("@/app/api/users/route");
const userRoleRoute = await import("@/app/api/users/[id]/role/route");
const userDisableRoute = await import("@/app/api/users/[id]/disable/route");
const userEnableRoute = await import("@/app/api/users/[id]/enable/route");
const resetRoute = await import("@/app/api/users/[id]/password-reset/route");
const signInBlockRoute = await import("@/app/api/users/[id]/sign-in-block/route");
const passwordRoute = await import("@/app/api/me/password/route");
const mcpRoute = await import("@/app/api/mcp-servers/route");
const mcpServerRoute = await import("@/app/api/mcp-servers/[name]/route");
const policyRoute = await import("@/app/api/policy/route");
const { createUserAction } = await import("./create-user");
const { changeUserRoleAction } = await import("./change-user-role");
const { setUserDisabledAction } = await import("./set-user-disabled");
const { resetUserPasswordAction } = await import("./reset-user-password");
const { liftSignInBlockAction } = await import("./lift-sign-in-block");
const { consumeSignInAttempt, recordSignInFailure, SIGN_IN_LIMITS } = await import("../auth/server/throttle");
const { changeOwnPasswordAction } = await import("./change-own-password");
const { createMcpServerAction } = await import("./create-mcp-server");
const { updateMcpServerAction } = await import("./update-mcp-server");
const { deleteMcpServerAction } = await import("./delete-mcp-server");
const { updateWorkspacePolicyAction } = await import("./update-workspace-policy");

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
const unique = (prefix: string) => `${prefix}_${randomUUID().slice(0, 8)}`;

/** Values that differ between two calls by nature (ids, times, one-time passwords, names) are blanked before comparing. */
function normalized(outcome: Outcome, differing: readonly string[]): unknown {
  return JSON.parse(JSON.stringify(outcome), (key: string, value: unknown) => (differing.includes(key) ? "<differs>" : value));
}

describe("users", () => {
  it("create: the same account (password shown once either way) and the same audit row; the same refusals", async () => {
    as("admin");
    const input = (email: string) => ({ email, name: "Parity", role: "approver", kind: "password" });
    const [ea, eb] = [`${unique("a")}@zap.local`, `${unique("b")}@zap.local`];
    const action = await audited(h.db, async () => actionOutcome(await createUserAction(input(ea))));
    const route = await audited(h.db, async () => routeOutcome(await usersRoute.POST(apiRequest("POST", "/api/users", input(eb)), params({}))));
    expect(action.outcome.ok, JSON.stringify(action.outcome)).toBe(true);
    const differing = ["id", "email", "oneTimePassword", "password", "createdAt"];
    expect(normalized(action.outcome, differing)).toEqual(normalized(route.outcome, differing));
    const created = async (email: string) => (await h.db.user.findUniqueOrThrow({ where: { email } })).id;
    expect(action.audit).toEqual([{ action: "user.created", actorId: ids.admin, target: await created(ea) }]);
    expect(route.audit).toEqual([{ action: "user.created", actorId: ids.admin, target: await created(eb) }]);

    for (const [what, body] of [
      ["a role that does not exist", { ...input(`${unique("c")}@zap.local`), role: "owner" }],
      ["an unknown key", { ...input(`${unique("d")}@zap.local`), admin: true }],
      ["an email taken", input(ea)],
    ] as const) {
      expectSameRefusal(await routeOutcome(await usersRoute.POST(apiRequest("POST", "/api/users", body), params({}))), actionOutcome(await createUserAction(body)), what);
    }
    as("builder");
    const body = input(`${unique("e")}@zap.local`);
    expectSameRefusal(await routeOutcome(await usersRoute.POST(apiRequest("POST", "/api/users", body), params({}))), actionOutcome(await createUserAction(body)), "a builder");
  });

  // One route per operation (PATCH …/role, POST …/disable, …/enable, …/password-reset), each the action's schema with the user from the path.
  const roleViaRoute = (id: string, body: unknown) => async () => routeOutcome(await userRoleRoute.PATCH(apiRequest("PATCH", `/api/users/${id}/role`, body), params({ id })));
  const disableViaRoute = (id: string) => async () => routeOutcome(await userDisableRoute.POST(apiRequest("POST", `/api/users/${id}/disable`), params({ id })));
  const enableViaRoute = (id: string) => async () => routeOutcome(await userEnableRoute.POST(apiRequest("POST", `/api/users/${id}/enable`), params({ id })));
  const resetViaRoute = (id: string) => async () => routeOutcome(await resetRoute.POST(apiRequest("POST", `/api/users/${id}/password-reset`), params({ id })));
  const person = async () => (await h.db.user.create({ data: { email: `${unique("p")}@zap.local`, name: "Parity", role: "viewer", passwordHash: "x" } })).id;

  it("lifting a sign-in block: same result (no block left) and audit row through the route and the action", async () => {
    as("admin");
    const [a, b] = [await person(), await person()];
    for (const id of [a, b]) {
      const { email } = await h.db.user.findUniqueOrThrow({ where: { id } });
      for (let i = 0; i < SIGN_IN_LIMITS.pairFailures; i++) {
        const gate = await consumeSignInAttempt(h.db, { email, ip: "198.51.100.99" });
        if (gate.allowed) await recordSignInFailure(h.db, gate.ticket);
      }
    }
    const viaAction = await audited(h.db, async () => actionOutcome(await liftSignInBlockAction({ userId: a })));
    const viaRoute = await audited(h.db, async () => routeOutcome(await signInBlockRoute.DELETE(apiRequest("DELETE", `/api/users/${b}/sign-in-block`), params({ id: b }))));
    expect(viaAction.outcome.ok, JSON.stringify(viaAction.outcome)).toBe(true);
    expect(normalized(viaAction.outcome, ["id", "email", "createdAt"])).toEqual(normalized(viaRoute.outcome, ["id", "email", "createdAt"]));
    expect(JSON.stringify(viaAction.outcome)).toContain('"signInBlock":null');
    expect(viaAction.audit).toEqual([{ action: "user.sign_in_unblocked", actorId: ids.admin, target: a }]);
    expect(viaRoute.audit).toEqual([{ action: "user.sign_in_unblocked", actorId: ids.admin, target: b }]);
    as("builder");
    const refused = await routeOutcome(await signInBlockRoute.DELETE(apiRequest("DELETE", `/api/users/${a}/sign-in-block`), params({ id: a })));
    expectSameRefusal(refused, actionOutcome(await liftSignInBlockAction({ userId: a })), "a builder lifts a block");
  });

  it("role change, disable, enable and password reset: same result and audit row through each route and its action", async () => {
    as("admin");
    const [a, b] = [await person(), await person()];
    const differing = ["id", "email", "createdAt", "oneTimePassword", "password"];

    const steps: [string, (id: string) => () => Promise<Outcome>, (id: string) => () => Promise<Outcome>, string][] = [
      ["role", (id) => async () => actionOutcome(await changeUserRoleAction({ userId: id, role: "builder" })), (id) => roleViaRoute(id, { role: "builder" }), "user.role_changed"],
      ["disable", (id) => async () => actionOutcome(await setUserDisabledAction({ userId: id, disabled: true })), disableViaRoute, "user.disabled"],
      ["enable", (id) => async () => actionOutcome(await setUserDisabledAction({ userId: id, disabled: false })), enableViaRoute, "user.enabled"],
      ["reset", (id) => async () => actionOutcome(await resetUserPasswordAction({ userId: id })), resetViaRoute, "user.password_reset"],
    ];
    for (const [what, action, route, auditAction] of steps) {
      const viaAction = await audited(h.db, action(a));
      const viaRoute = await audited(h.db, route(b));
      expect(viaAction.outcome.ok, `${what}: ${JSON.stringify(viaAction.outcome)}`).toBe(true);
      expect(normalized(viaAction.outcome, differing), what).toEqual(normalized(viaRoute.outcome, differing));
      expect(viaAction.audit, what).toEqual([{ action: auditAction, actorId: ids.admin, target: a }]);
      expect(viaRoute.audit, what).toEqual([{ action: auditAction, actorId: ids.admin, target: b }]);
    }
    const [rowA, rowB] = await Promise.all([a, b].map((id) => h.db.user.findUniqueOrThrow({ where: { id } })));
    expect([rowA?.role, rowB?.role], "both doors changed the role").toEqual(["builder", "builder"]);
    expect([rowA?.disabledAt, rowB?.disabledAt], "both doors disabled, then enabled").toEqual([null, null]);
  });

  it("refuses the same way for each operation, and no refusal is audited", async () => {
    as("admin");
    const a = await person();
    const admin = ids.admin ?? "";
    const missing = "no-such-user";
    const cases: [string, () => Promise<Outcome>, () => Promise<Outcome>][] = [
      ["role: a role that does not exist", roleViaRoute(a, { role: "owner" }), async () => actionOutcome(await changeUserRoleAction({ userId: a, role: "owner" }))],
      ["role: an unknown key", roleViaRoute(a, { role: "viewer", extra: 1 }), async () => actionOutcome(await changeUserRoleAction({ userId: a, role: "viewer", extra: 1 }))],
      ["role: a field of another operation", roleViaRoute(a, { role: "viewer", disabled: true }), async () => actionOutcome(await changeUserRoleAction({ userId: a, role: "viewer", disabled: true }))],
      ["role: the last admin", roleViaRoute(admin, { role: "viewer" }), async () => actionOutcome(await changeUserRoleAction({ userId: admin, role: "viewer" }))],
      ["role: no such user", roleViaRoute(missing, { role: "viewer" }), async () => actionOutcome(await changeUserRoleAction({ userId: missing, role: "viewer" }))],
      ["role: a malformed id", roleViaRoute("x".repeat(65), { role: "viewer" }), async () => actionOutcome(await changeUserRoleAction({ userId: "x".repeat(65), role: "viewer" }))],
      ["disable: yourself", disableViaRoute(admin), async () => actionOutcome(await setUserDisabledAction({ userId: admin, disabled: true }))],
      ["disable: no such user", disableViaRoute(missing), async () => actionOutcome(await setUserDisabledAction({ userId: missing, disabled: true }))],
      ["enable: no such user", enableViaRoute(missing), async () => actionOutcome(await setUserDisabledAction({ userId: missing, disabled: false }))],
      ["reset: your own password", resetViaRoute(admin), async () => actionOutcome(await resetUserPasswordAction({ userId: admin }))],
      ["reset: no such user", resetViaRoute(missing), async () => actionOutcome(await resetUserPasswordAction({ userId: missing }))],
    ];
    for (const [what, route, action] of cases) {
      const viaRoute = await audited(h.db, route);
      const viaAction = await audited(h.db, action);
      expectSameRefusal(viaRoute.outcome, viaAction.outcome, what);
      expect([...viaRoute.audit, ...viaAction.audit], `${what}: nothing audited`).toEqual([]);
    }
    // A not-found is one sentence naming the user, from every door.
    expect(await roleViaRoute(missing, { role: "viewer" })()).toMatchObject({ status: 404, error: { message: `There is no user with id "${missing}"` } });
    // The path is the only source of the user: a body naming another is refused, not obeyed.
    expect(await roleViaRoute(a, { userId: admin, role: "viewer" })()).toMatchObject({ status: 422, error: { issues: [{ path: "userId", message: "given in the path; leave it out of the body" }] } });

    as("builder");
    for (const [what, route, action] of [
      ["role", roleViaRoute(a, { role: "admin" }), async () => actionOutcome(await changeUserRoleAction({ userId: a, role: "admin" }))],
      ["disable", disableViaRoute(a), async () => actionOutcome(await setUserDisabledAction({ userId: a, disabled: true }))],
      ["enable", enableViaRoute(a), async () => actionOutcome(await setUserDisabledAction({ userId: a, disabled: false }))],
      ["reset", resetViaRoute(a), async () => actionOutcome(await resetUserPasswordAction({ userId: a }))],
    ] as const) {
      expectSameRefusal(await route(), await action(), `a builder: ${what}`);
    }
  });
});

describe("your own password", () => {
  it("a change: same answer and user.password_changed row; the same refusals", async () => {
    as("admin");
    const account = async () => {
      const created = await createUserAction({ email: `${unique("own")}@zap.local`, name: "Own", role: "viewer", kind: "password" });
      if (!created.ok) throw new Error(JSON.stringify(created.error));
      return { id: created.data.user.id, password: created.data.oneTimePassword ?? "" };
    };
    const [a, b] = [await account(), await account()];
    const viaAction = async (body: Record<string, unknown>) => actionOutcome(await changeOwnPasswordAction(body));
    const viaRoute = async (body: Record<string, unknown>) => routeOutcome(await passwordRoute.POST(apiRequest("POST", "/api/me/password", body), params({})));

    type Account = { id: string; password: string };
    const cases: [string, (who: Account) => Record<string, unknown>][] = [
      ["a wrong current password", () => ({ currentPassword: "not it at all", newPassword: "a long new passphrase 42" })],
      ["a new password too short", (who) => ({ currentPassword: who.password, newPassword: "short" })],
      ["an unknown key", (who) => ({ currentPassword: who.password, newPassword: "a long new passphrase 42", userId: ids.admin })],
    ];
    for (const [what, body] of cases) {
      doors.userId = a.id;
      const action = await viaAction(body(a));
      doors.userId = b.id;
      expectSameRefusal(await viaRoute(body(b)), action, what);
    }

    const newPassword = "a long new passphrase 42";
    doors.userId = a.id;
    const action = await audited(h.db, () => viaAction({ currentPassword: a.password, newPassword }));
    doors.userId = b.id;
    const route = await audited(h.db, () => viaRoute({ currentPassword: b.password, newPassword }));
    expect(action.outcome).toEqual({ ok: true, data: { changed: true } });
    expect(route.outcome).toEqual(action.outcome);
    expect(action.audit).toEqual([{ action: "user.password_changed", actorId: a.id, target: a.id }]);
    expect(route.audit).toEqual([{ action: "user.password_changed", actorId: b.id, target: b.id }]);
  });
});

describe("the MCP registry", () => {
  const transport = { type: "stdio", command: "node", args: ["--import", "tsx", "worker/tools/mcp-demo-server.ts"] };
  const create = (name: string) => ({ name, description: "parity", transport, secrets: { KB_TOKEN: "sealed" } });

  it("create and update: same result and audit row through both doors", async () => {
    as("admin");
    const [a, b] = [unique("pa"), unique("pb")];
    const differing = ["name", "updatedAt"];
    const steps: [string, (name: string) => Promise<Outcome>, (name: string) => Promise<Outcome>, string][] = [
      [
        "create",
        async (name) => actionOutcome(await createMcpServerAction(create(name))),
        async (name) => routeOutcome(await mcpRoute.POST(apiRequest("POST", "/api/mcp-servers", create(name)), params({})), "server"),
        "mcp_server.created",
      ],
      [
        "update",
        async (name) => actionOutcome(await updateMcpServerAction({ name, patch: { description: "changed", secrets: { KB_TOKEN: null } } })),
        async (name) => routeOutcome(await mcpServerRoute.PATCH(apiRequest("PATCH", `/api/mcp-servers/${name}`, { description: "changed", secrets: { KB_TOKEN: null } }), params({ name })), "server"),
        "mcp_server.updated",
      ],
    ];
    for (const [what, action, route, auditAction] of steps) {
      const viaAction = await audited(h.db, () => action(a));
      const viaRoute = await audited(h.db, () => route(b));
      expect(viaAction.outcome.ok, `${what}: ${JSON.stringify(viaAction.outcome)}`).toBe(true);
      expect(normalized(viaAction.outcome, differing), what).toEqual(normalized(viaRoute.outcome, differing));
      expect(viaAction.audit, what).toEqual([{ action: auditAction, actorId: ids.admin, target: a }]);
      expect(viaRoute.audit, what).toEqual([{ action: auditAction, actorId: ids.admin, target: b }]);
    }
  });

  it("delete: the route answers the operation's result as the action does (not an empty 204), and refuses the same way", async () => {
    as("admin");
    const [a, b] = [unique("da"), unique("db")];
    for (const name of [a, b]) expect((await createMcpServerAction(create(name))).ok, `${name} registered`).toBe(true);
    const viaAction = async (name: string) => actionOutcome(await deleteMcpServerAction({ name }));
    const viaRoute = async (name: string) => {
      const response = await mcpServerRoute.DELETE(apiRequest("DELETE", `/api/mcp-servers/${name}`), params({ name }));
      if (response.ok) expect(response.status, "a deletion answers 200 with a body").toBe(200);
      return routeOutcome(response);
    };
    const action = await audited(h.db, () => viaAction(a));
    const route = await audited(h.db, () => viaRoute(b));
    expect(action.outcome).toEqual({ ok: true, data: { deleted: a } });
    expect(route.outcome).toEqual({ ok: true, data: { deleted: b } });
    expect(action.audit).toEqual([{ action: "mcp_server.deleted", actorId: ids.admin, target: a }]);
    expect(route.audit).toEqual([{ action: "mcp_server.deleted", actorId: ids.admin, target: b }]);

    // Deleted once: the second time both doors say it is gone, in the same sentence, and audit nothing.
    const again = await audited(h.db, () => viaRoute(a));
    expectSameRefusal(again.outcome, await viaAction(a), "a server already deleted");
    expect(again.outcome).toMatchObject({ status: 404, error: { message: `There is no MCP server named "${a}"` } });
    expect(again.audit).toEqual([]);
    expectSameRefusal(await viaRoute("Not_Valid"), await viaAction("Not_Valid"), "a name with capitals");
    const kept = unique("dk");
    expect((await createMcpServerAction(create(kept))).ok).toBe(true);
    as("builder");
    const refused = await audited(h.db, () => viaRoute(kept));
    expectSameRefusal(refused.outcome, await viaAction(kept), "a builder");
    expect(refused.audit, "a builder's attempt audits nothing").toEqual([]);
    expect(await h.db.mcpServer.count({ where: { name: kept } }), "the builder deleted nothing").toBe(1);
  });

  it("refuses the same way: a command off the allowlist, an unknown key, an unknown server, a builder", async () => {
    as("admin");
    const name = unique("pr");
    const cases: [string, Record<string, unknown>][] = [
      ["a command off the allowlist", { ...create(name), transport: { type: "stdio", command: "curl", args: ["evil.example"] } }],
      ["an unknown key", { ...create(name), trusted: true }],
      ["a name with capitals", create("Not_Valid")],
    ];
    for (const [what, body] of cases) {
      expectSameRefusal(await routeOutcome(await mcpRoute.POST(apiRequest("POST", "/api/mcp-servers", body), params({}))), actionOutcome(await createMcpServerAction(body)), what);
    }
    const missing = unique("missing");
    expectSameRefusal(
      await routeOutcome(await mcpServerRoute.PATCH(apiRequest("PATCH", `/api/mcp-servers/${missing}`, { description: "x" }), params({ name: missing }))),
      actionOutcome(await updateMcpServerAction({ name: missing, patch: { description: "x" } })),
      "an unknown server",
    );
    as("builder");
    expectSameRefusal(await routeOutcome(await mcpRoute.POST(apiRequest("POST", "/api/mcp-servers", create(name)), params({}))), actionOutcome(await createMcpServerAction(create(name))), "a builder");
  });
});

describe("the workspace policy", () => {
  it("the same policy gives the same revision step and the same audit row; refusals match", async () => {
    as("admin");
    const policy = { exemptTools: ["kb__search_kb"], floors: { minRequiredApprovals: 1 } };
    const put = (body: unknown) => policyRoute.PUT(apiRequest("PUT", "/api/policy", body), params({}));
    const action = await audited(h.db, async () => actionOutcome(await updateWorkspacePolicyAction(policy)));
    const route = await audited(h.db, async () => routeOutcome(await put(policy)));
    expect(action.outcome.ok, JSON.stringify(action.outcome)).toBe(true);
    expect(normalized(action.outcome, ["revision", "updatedAt", "updatedBy"])).toEqual(normalized(route.outcome, ["revision", "updatedAt", "updatedBy"]));
    expect(action.audit).toEqual([{ action: "policy.updated", actorId: ids.admin, target: "workspace" }]);
    expect(route.audit).toEqual(action.audit);

    for (const [what, body] of [
      ["an unknown key", { ...policy, ignoreFloors: true }],
      ["a floor out of range", { ...policy, floors: { minRequiredApprovals: 99 } }],
    ] as const) {
      expectSameRefusal(await routeOutcome(await put(body)), actionOutcome(await updateWorkspacePolicyAction(body)), what);
    }
    as("approver");
    expectSameRefusal(await routeOutcome(await put(policy)), actionOutcome(await updateWorkspacePolicyAction(policy)), "an approver");
  });
});
