// Issue 39 §3: only admins change what model calls cost. Through the real
// routes with real API keys: a builder's, an approver's and a viewer's key, and
// an admin's key made with the viewer role, set and remove no price (403) and
// nothing is written or audited; each of them still reads the prices. An
// admin's key is the control: the same request succeeds.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorOf, keyRequest, routeParams, startApiCallers, type ApiCallers, type KeyHolder } from "@/scripts/test-support/api-callers";
import { createApiKey } from "@/lib/api-keys/server/api-keys";

vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, has: () => false, delete: () => undefined }),
}));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

let callers: ApiCallers;
let pricesRoute: typeof import("@/app/api/prices/route");
let priceRoute: typeof import("@/app/api/prices/[priceId]/route");
let admin: KeyHolder;
const others: { who: string; token: string }[] = [];
let existingId = "";

beforeAll(async () => {
  callers = await startApiCallers();
  pricesRoute = await import("@/app/api/prices/route");
  priceRoute = await import("@/app/api/prices/[priceId]/route");
  admin = await callers.holder("admin");
  for (const role of ["builder", "approver", "viewer"] as const) others.push({ who: `a ${role}'s key`, token: (await callers.holder(role)).token });
  // An admin's own key with less than the admin's role acts with the key's role.
  const capped = await createApiKey({ id: admin.id, role: "admin" }, { name: "read-only", role: "viewer" }, callers.db);
  others.push({ who: "an admin's viewer-role key", token: capped.token });
  const created = await pricesRoute.POST(keyRequest(admin.token, "/api/prices", { method: "POST", body: { model: "acme/guarded", input: 1, output: 2, effectiveFrom: "2026-01-01T00:00:00Z" } }), routeParams({}));
  expect(created.status).toBe(200);
  existingId = ((await created.json()) as { id: string }).id;
});
afterAll(async () => callers?.stop());

const priceRows = () => callers.db.modelPrice.findMany({ orderBy: { effectiveFrom: "asc" }, select: { id: true, model: true, input: true, output: true } });
const priceAudits = () => callers.db.auditEvent.count({ where: { action: { in: ["price.set", "price.removed"] } } });

describe("who may change prices", () => {
  it("refuses every non-admin key to set or remove a price, writing and auditing nothing", async () => {
    const rows = await priceRows();
    const audits = await priceAudits();
    for (const { who, token } of others) {
      for (const body of [
        { model: "acme/guarded", input: 0, output: 0, effectiveFrom: "2026-01-01T00:00:00Z" }, // overwrite the admin's price with $0
        { model: "demo/assistant", input: 1000, output: 1000 }, // make the free demo model expensive
      ]) {
        const set = await pricesRoute.POST(keyRequest(token, "/api/prices", { method: "POST", body }), routeParams({}));
        expect(set.status, `${who} sets ${body.model}`).toBe(403);
        expect((await errorOf(set)).code).toBe("forbidden");
      }
      const removed = await priceRoute.DELETE(keyRequest(token, `/api/prices/${existingId}`, { method: "DELETE" }), routeParams({ priceId: existingId }));
      expect(removed.status, `${who} removes a price`).toBe(403);
    }
    expect(await priceRows(), "no price changed").toEqual(rows);
    expect(await priceAudits(), "nothing audited").toBe(audits);
  });

  it("lets every key read the prices, and an admin's key change them (the control)", async () => {
    for (const { who, token } of others) {
      const read = await pricesRoute.GET(keyRequest(token, "/api/prices"), routeParams({}));
      expect(read.status, who).toBe(200);
      expect(((await read.json()) as { entries: { model: string }[] }).entries.map((e) => e.model), who).toContain("acme/guarded");
    }
    const removed = await priceRoute.DELETE(keyRequest(admin.token, `/api/prices/${existingId}`, { method: "DELETE" }), routeParams({ priceId: existingId }));
    expect(removed.status).toBe(200);
    expect(await callers.db.auditEvent.count({ where: { action: "price.removed", actorId: admin.id } })).toBe(1);
  });
});
