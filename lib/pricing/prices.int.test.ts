// The price table (issue 39 §3) through its three doors — the admin page's
// server actions, /api/prices and the TypeScript client — on SQLite and
// PostgreSQL: the same result and audit row whichever door, history kept, and
// each model call priced at the price in effect when it ran, summed by the
// database per price period (a run that straddles a change is priced exactly);
// a builder or viewer changes nothing (lib/pricing/prices.security.test.ts: with keys).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { testProviders } from "../../scripts/test-support/databases";
import { doors } from "../../scripts/test-support/parity-doors";
import { actionOutcome, apiRequest, audited, expectSameRefusal, params, routeOutcome } from "../../scripts/test-support/parity";
import { ZapClient } from "../client/zap-client";
import { ownUsage } from "../runs/server/usage";
import { costAt } from "./price-book";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const pricesRoute = await import("@/app/api/prices/route");
const priceRoute = await import("@/app/api/prices/[priceId]/route");
const { setModelPriceAction } = await import("../actions/set-model-price");
const { removeModelPriceAction } = await import("../actions/remove-model-price");
const { loadPriceBook } = await import("./server/price-book");

/** The client, its requests answered in-process by the routes as the signed-in user. */
const client = new ZapClient({
  baseUrl: "http://127.0.0.1",
  apiKey: "zap_in-process-test-key-0123456789",
  fetch: async (input, init) => {
    const url = new URL(String(input));
    const request = apiRequest(init?.method ?? "GET", url.pathname, init?.body ? JSON.parse(String(init.body)) : undefined);
    const id = url.pathname.split("/")[3];
    if (id) return priceRoute.DELETE(request, params({ priceId: decodeURIComponent(id) }));
    return request.method === "POST" ? pricesRoute.POST(request, params({})) : pricesRoute.GET(request, params({}));
  },
});

const providers = await testProviders();
const T1 = "2026-03-01T00:00:00.000Z";
const T2 = "2026-06-01T00:00:00.000Z";

describe.each(providers)("the price table on $provider", ({ available, create }) => {
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
    for (const role of ["admin", "builder", "viewer"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
  });
  afterAll(async () => h?.stop());

  it.skipIf(!available)("an admin sets prices through each door, with the same answer and audit row; everyone reads them with their history", async () => {
    doors.db = h.db;
    doors.config = h.config;
    as("admin");
    const byAction = await audited(h.db, async () => actionOutcome(await setModelPriceAction({ model: "acme/one", input: 1, output: 2, effectiveFrom: T1 })));
    const byRoute = await audited(h.db, async () => routeOutcome(await pricesRoute.POST(apiRequest("POST", "/api/prices", { model: "acme/two", input: 1, output: 2, effectiveFrom: T1 }), params({}))));
    const byClient = await audited(h.db, async () => ({ ok: true as const, data: await client.setModelPrice({ model: "acme/three", input: 1, output: 2, effectiveFrom: T1 }) }));
    const blank = (o: { outcome: unknown; audit: { action: string; actorId: string | null; target: string | null }[] }) =>
      JSON.parse(JSON.stringify(o), (key: string, value: unknown) => (key === "id" || key === "model" || key === "target" ? "<differs>" : value));
    expect(blank(byRoute)).toEqual(blank(byAction));
    expect(blank(byClient)).toEqual(blank(byAction));
    expect(byAction.audit).toEqual([{ action: "price.set", actorId: ids.admin, target: "acme/one" }]);
    expect(byAction.outcome).toMatchObject({ ok: true, data: { model: "acme/one", input: 1, output: 2, cachedRead: null, cachedWrite: null, reasoning: null, effectiveFrom: T1 } });

    // A new price later keeps the first as history; the same time again replaces it (audited with what it replaced).
    await client.setModelPrice({ model: "acme/one", input: 3, output: 4, cachedRead: 0.3, effectiveFrom: T2 });
    await client.setModelPrice({ model: "acme/one", input: 5, output: 6, cachedRead: 0.5, effectiveFrom: T2 });
    const replaced = await h.db.auditEvent.findFirstOrThrow({ where: { action: "price.set", target: "acme/one" }, orderBy: { seq: "desc" } });
    expect(JSON.parse(replaced.details)).toMatchObject({ input: 5, replaced: { input: 3, output: 4, cachedRead: 0.3 } });

    as("viewer");
    const entries = (await client.listModelPrices()).filter((e) => e.model === "acme/one");
    expect(entries.map((e) => [e.effectiveFrom, e.input, e.output, e.source, e.setBy])).toEqual([
      [T1, 1, 2, "admin", "admin@zap.local"],
      [T2, 5, 6, "admin", "admin@zap.local"],
    ]);
    const all = await client.listModelPrices();
    expect(all.find((e) => e.model === "anthropic/claude-sonnet-4"), "the shipped defaults are listed as such").toMatchObject({ source: "default", input: 3, output: 15, effectiveFrom: new Date(0).toISOString() });
  });

  it.skipIf(!available)("prices each model call at the price in effect when it ran, summed per price period by the database", async () => {
    doors.db = h.db;
    doors.config = h.config;
    as("admin");
    await client.setModelPrice({ model: "acme/straddled", input: 1, output: 10, effectiveFrom: T1 });
    await client.setModelPrice({ model: "acme/straddled", input: 2, output: 20, effectiveFrom: T2 });
    await client.setModelPrice({ model: "demo/assistant", input: 4, output: 8, effectiveFrom: T2 });
    await h.db.run.create({ data: { id: "priced-run", rootRunId: "priced-run", agentName: "pricing", task: "t", status: "completed", startedAt: new Date("2026-01-01T00:00:00Z") } });
    const span = (spanId: string, name: string, at: string, inputTokens: number, outputTokens: number) => ({ runId: "priced-run", spanId, parentId: null, kind: "inference", name, status: "ok", startedAt: new Date(at), data: JSON.stringify({ tokens: { inputTokens, outputTokens } }) });
    await h.db.runSpan.createMany({
      data: [
        span("before", "acme/straddled", "2026-02-01T00:00:00Z", 1_000_000, 0), // unpriced then: no price before T1
        span("first", "acme/straddled", "2026-04-01T00:00:00Z", 1_000_000, 100_000), // $1 + $1
        span("second", "acme/straddled", "2026-07-01T00:00:00Z", 1_000_000, 100_000), // $2 + $2
        span("demo-free", "demo/assistant", "2026-04-01T00:00:00Z", 1_000_000, 0), // demo: free until priced
        span("demo-priced", "demo/assistant", "2026-07-01T00:00:00Z", 1_000_000, 0), // $4
      ],
    });
    const book = await loadPriceBook();
    expect(costAt(book, "acme/straddled", { inputTokens: 1, outputTokens: 0 }, Date.parse(T1) - 1), "unpriced before its first price").toBeNull();
    const withUnpriced = await ownUsage(h.db, ["priced-run"], book);
    expect(withUnpriced.get("priced-run")?.cost, "a call without a price makes the run's cost unknown, never a partial sum").toBeNull();

    await h.db.runSpan.deleteMany({ where: { runId: "priced-run", spanId: "before" } });
    const usage = (await ownUsage(h.db, ["priced-run"], book)).get("priced-run");
    expect(usage?.tokens).toEqual({ inputTokens: 4_000_000, outputTokens: 200_000 });
    expect(usage?.cost).toBeCloseTo(2 + 4 + 0 + 4, 9);
  });

  it.skipIf(!available)("an edit shows at once in this process; removing a price brings the earlier one back, through either door", async () => {
    doors.db = h.db;
    doors.config = h.config;
    as("admin");
    await client.setModelPrice({ model: "acme/removable", input: 1, output: 1, effectiveFrom: T1 });
    expect((await loadPriceBook()).models["acme/removable"]).toHaveLength(1);
    const later = await client.setModelPrice({ model: "acme/removable", input: 9, output: 9, effectiveFrom: T2 });
    const at = Date.parse(T2) + 1;
    expect(costAt(await loadPriceBook(), "acme/removable", { inputTokens: 1_000_000, outputTokens: 0 }, at), "the edit is seen at once").toBe(9);
    const removed = await audited(h.db, async () => routeOutcome(await priceRoute.DELETE(apiRequest("DELETE", `/api/prices/${later.id}`), params({ priceId: later.id }))));
    expect(removed.audit).toEqual([{ action: "price.removed", actorId: ids.admin, target: "acme/removable" }]);
    expect(costAt(await loadPriceBook(), "acme/removable", { inputTokens: 1_000_000, outputTokens: 0 }, at)).toBe(1);
    const again = actionOutcome(await removeModelPriceAction({ id: later.id }));
    expectSameRefusal(await routeOutcome(await priceRoute.DELETE(apiRequest("DELETE", `/api/prices/${later.id}`), params({ priceId: later.id }))), again, "a removed price");
    expect(again).toMatchObject({ ok: false, status: 404 });
  });

  it.skipIf(!available)("refuses a builder and a viewer through both doors (403), and writes nothing", async () => {
    doors.db = h.db;
    doors.config = h.config;
    for (const role of ["builder", "viewer"]) {
      as(role);
      const body = { model: "demo/assistant", input: 100, output: 100 };
      expectSameRefusal(await routeOutcome(await pricesRoute.POST(apiRequest("POST", "/api/prices", body), params({}))), actionOutcome(await setModelPriceAction(body)), `${role} sets a price`);
      expect(actionOutcome(await removeModelPriceAction({ id: "any" })), role).toMatchObject({ ok: false, status: 403 });
    }
    expect(await h.db.modelPrice.count({ where: { model: "demo/assistant", input: 100 } })).toBe(0);
  });

  it.skipIf(!available)("refuses bad input the same way through both doors, naming the field", async () => {
    doors.db = h.db;
    doors.config = h.config;
    as("admin");
    const cases: [string, Record<string, unknown>, string][] = [
      ["a negative price", { model: "acme/bad", input: -1, output: 1 }, "input"],
      ["a model without its provider", { model: "gpt-4o", input: 1, output: 1 }, "model"],
      ["an unknown key", { model: "acme/bad", input: 1, output: 1, currency: "EUR" }, ""],
      ["a time that is not ISO", { model: "acme/bad", input: 1, output: 1, effectiveFrom: "yesterday" }, "effectiveFrom"],
    ];
    for (const [what, body, path] of cases) {
      const route = await routeOutcome(await pricesRoute.POST(apiRequest("POST", "/api/prices", body), params({})));
      expectSameRefusal(route, actionOutcome(await setModelPriceAction(body)), what);
      expect(route, what).toMatchObject({ ok: false, status: 422 });
      if (path) expect((route as { error: { issues: { path: string }[] } }).error.issues[0]?.path, what).toBe(path);
    }
    expect(await h.db.modelPrice.count({ where: { model: "acme/bad" } })).toBe(0);
  });
});
