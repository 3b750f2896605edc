// The workspace policy is the admins' (issue 14 §3): a builder who wants their
// agent's calls to run unchecked cannot lower a floor or exempt a tool through
// the API, whatever they send; an admin can, and it is audited.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { startEngineHarness, type EngineHarness } from "@/scripts/test-support/engine-harness";
import type { Db } from "@/lib/db/prisma";

// The real session check and policy module, over the test database; only "who is signed in" is set by the test.
const state = vi.hoisted(() => ({ db: null as Db | null, userId: null as string | null }));
vi.mock("@/lib/auth/server/auth", () => ({ auth: async () => (state.userId ? { user: { id: state.userId }, signedInAt: Date.now() } : null) }));
vi.mock("@/lib/db/server/db", () => ({
  getDb: () => {
    if (!state.db) throw new Error("no test database");
    return state.db;
  },
}));
const { GET, PUT } = await import("./route");

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness({ worker: false });
  state.db = h.db;
});
afterAll(async () => h?.stop());

const signInAs = async (email: string) => {
  state.userId = (await h.db.user.findUniqueOrThrow({ where: { email } })).id;
};
const put = (body: unknown) =>
  PUT(new NextRequest("http://127.0.0.1/api/policy", { method: "PUT", body: JSON.stringify(body), headers: { "content-type": "application/json", origin: "http://127.0.0.1", host: "127.0.0.1" } }), {
    params: Promise.resolve({}),
  });
const weakened = { exemptTools: ["*"], floors: { minRequiredApprovals: 1, maxExpiresInSeconds: 60, allowedExpiryOutcomes: ["reject", "approve"], allowSelfApproval: true } };

describe("PUT /api/policy", () => {
  it("a builder cannot weaken the workspace policy: 403, nothing changed, nothing audited", async () => {
    await signInAs("builder@zap.local");
    const before = await h.db.workspacePolicy.findUnique({ where: { id: "workspace" } });
    const response = await put(weakened);
    expect(response.status).toBe(403);
    expect(await h.db.workspacePolicy.findUnique({ where: { id: "workspace" } })).toEqual(before);
    expect(await h.db.auditEvent.count({ where: { action: "policy.updated", actorId: state.userId } })).toBe(0);
  });

  it("neither can an approver; everyone signed in may read it", async () => {
    await signInAs("approver@zap.local");
    expect((await put(weakened)).status).toBe(403);
    const read = await GET(new NextRequest("http://127.0.0.1/api/policy"), { params: Promise.resolve({}) });
    expect(read.status).toBe(200);
    expect((await read.json()).policy.exemptTools).toEqual(["kb__search_kb"]);
  });

  it("an admin changes it: revision + 1, audited with before and after; unknown keys are refused", async () => {
    await signInAs("admin@zap.local");
    const before = await h.db.workspacePolicy.findUniqueOrThrow({ where: { id: "workspace" } });
    expect((await put({ ...weakened, floors: { ...weakened.floors, ignoreFloors: true } })).status).toBe(422);
    const response = await put({ exemptTools: ["kb__search_kb", "crm__read_*"], floors: { minRequiredApprovals: 2, requiredRole: "admin" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ revision: before.revision + 1, policy: { floors: { minRequiredApprovals: 2, requiredRole: "admin", allowSelfApproval: false } } });
    const audit = await h.db.auditEvent.findFirstOrThrow({ where: { action: "policy.updated", actorId: state.userId } });
    expect(JSON.parse(audit.details)).toMatchObject({ before: { exemptTools: ["kb__search_kb"] }, after: { exemptTools: ["kb__search_kb", "crm__read_*"] } });
  });
});
