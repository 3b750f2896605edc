// The admin's Slack user links through both doors (the admin page's actions
// and /api/slack/links), over the real session check and a real database:
// admins only, the Zap user named by email, each change audited; a bad member
// id is 422 naming the field, an unknown email 404.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { doors } from "../../scripts/test-support/parity-doors";
import { apiRequest, params } from "../../scripts/test-support/parity";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/engine/server/engine", async () => (await import("../../scripts/test-support/parity-doors")).engineModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const linksRoute = await import("@/app/api/slack/links/route");
const linkRoute = await import("@/app/api/slack/links/[slackUserId]/route");
const { linkSlackUserAction } = await import("../actions/link-slack-user");
const { unlinkSlackUserAction } = await import("../actions/unlink-slack-user");

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

describe("Slack user links", () => {
  it("an admin links a member through the action and moves it through the route; both audited", async () => {
    as("admin");
    expect(await linkSlackUserAction({ slackUserId: "U0LINKED1", email: "approver@zap.local" })).toMatchObject({ ok: true, data: { userId: ids.approver } });
    const moved = await linksRoute.POST(apiRequest("POST", "/api/slack/links", { slackUserId: "U0LINKED1", email: "builder@zap.local" }), params({}));
    expect(moved.status).toBe(200);
    expect(await h.db.slackUserLink.findUniqueOrThrow({ where: { slackUserId: "U0LINKED1" } })).toMatchObject({ userId: ids.builder, createdById: ids.admin });
    const audit = await h.db.auditEvent.findMany({ where: { target: "U0LINKED1" }, orderBy: { seq: "asc" } });
    expect(audit.map((a) => [a.action, a.actorId, JSON.parse(a.details).previousUserId])).toEqual([
      ["slack.user_linked", ids.admin, null],
      ["slack.user_linked", ids.admin, ids.approver],
    ]);
    const list = await linksRoute.GET(apiRequest("GET", "/api/slack/links"), params({}));
    expect((await list.json()).links).toContainEqual(expect.objectContaining({ slackUserId: "U0LINKED1", email: "builder@zap.local", role: "builder" }));
  });

  it("an admin unlinks through the route and the action; a second unlink is 404", async () => {
    as("admin");
    await linkSlackUserAction({ slackUserId: "U0UNLINK1", email: "approver@zap.local" });
    expect((await linkRoute.DELETE(apiRequest("DELETE", "/api/slack/links/U0UNLINK1"), params({ slackUserId: "U0UNLINK1" }))).status).toBe(200);
    expect(await h.db.slackUserLink.findUnique({ where: { slackUserId: "U0UNLINK1" } })).toBeNull();
    expect(await unlinkSlackUserAction({ slackUserId: "U0UNLINK1" })).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(await h.db.auditEvent.count({ where: { target: "U0UNLINK1", action: "slack.user_unlinked" } })).toBe(1);
  });

  it("refuses anyone but an admin (403) and bad input (422 naming the field, 404 unknown user)", async () => {
    for (const role of ["builder", "approver", "viewer"]) {
      as(role);
      expect(await linkSlackUserAction({ slackUserId: "U0SNEAKY1", email: `${role}@zap.local` }), role).toMatchObject({ ok: false, error: { code: "forbidden" } });
      expect((await linksRoute.POST(apiRequest("POST", "/api/slack/links", { slackUserId: "U0SNEAKY1", email: `${role}@zap.local` }), params({}))).status, role).toBe(403);
    }
    expect(await h.db.slackUserLink.findUnique({ where: { slackUserId: "U0SNEAKY1" } })).toBeNull();
    as("admin");
    const bad = await linksRoute.POST(apiRequest("POST", "/api/slack/links", { slackUserId: "not-an-id", email: "approver@zap.local" }), params({}));
    expect(bad.status).toBe(422);
    expect((await bad.json()).error.issues[0].path).toBe("slackUserId");
    expect((await linksRoute.POST(apiRequest("POST", "/api/slack/links", { slackUserId: "U0LINKED2", email: "approver@zap.local", role: "admin" }), params({}))).status, "unknown keys").toBe(422);
    expect(await linkSlackUserAction({ slackUserId: "U0LINKED2", email: "nobody@zap.local" })).toMatchObject({ ok: false, error: { code: "not_found" } });
  });
});
