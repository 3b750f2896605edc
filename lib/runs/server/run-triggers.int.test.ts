// GET /api/runs/triggers (the overview's "How runs started") through the real
// route with API keys over a migrated, seeded SQLite database: every role
// reads the split of the runs started in a range; bad input is answered 422
// naming the field; the client's runTriggers() reads the same answer.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorOf, keyRequest, routeParams, startApiCallers, type ApiCallers, type KeyHolder } from "../../../scripts/test-support/api-callers";
import { createRunRow } from "../../run-ledger/write";
import { ZapClient } from "../../client/zap-client";

vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, has: () => false, delete: () => undefined }),
}));
// Every request here carries an API key, which the routes check themselves; no browser session.
vi.mock("@/lib/auth/server/auth", () => ({ auth: async () => null, signIn: async () => undefined }));

let callers: ApiCallers;
let viewer: KeyHolder;
let route: typeof import("@/app/api/runs/triggers/route");
const FROM = "2026-02-01T00:00:00.000Z";
const TO = "2026-02-01T23:59:59.999Z";

beforeAll(async () => {
  callers = await startApiCallers();
  route = await import("@/app/api/runs/triggers/route");
  viewer = await callers.holder("viewer", "split-viewer");
  const rows: [string, { scheduleId?: string; webhookId?: string }, string][] = [
    ["split-manual", {}, "2026-02-01T08:00:00.000Z"],
    ["split-sched-a", { scheduleId: "sch_splitaaaa1" }, "2026-02-01T09:00:00.000Z"],
    ["split-sched-b", { scheduleId: "sch_splitaaaa1" }, "2026-02-01T10:00:00.000Z"],
    ["split-hook", { webhookId: "whk_splitaaaa1" }, "2026-02-01T11:00:00.000Z"],
    ["split-next-day", { webhookId: "whk_splitaaaa1" }, "2026-02-02T00:00:00.000Z"],
  ];
  for (const [id, origin, startedAt] of rows) {
    await createRunRow(callers.db, { id, agentName: "main", graphName: "split-graph", agentVersionId: null, startedBy: "ann@zap.local", task: "t", context: {} }, origin);
    await callers.db.run.update({ where: { id }, data: { startedAt: new Date(startedAt) } });
  }
}, 60_000);
afterAll(async () => {
  await callers?.stop();
});

const get = (query: string) => route.GET(keyRequest(viewer.token, `/api/runs/triggers?${query}`), routeParams({}));

describe("GET /api/runs/triggers", () => {
  it("a viewer reads the runs started in the range by what started them, the next day's left out", async () => {
    const response = await get(new URLSearchParams({ from: FROM, to: TO, graph: "split-graph" }).toString());
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toEqual({ from: FROM, to: TO, counts: { manual: 1, schedule: 2, webhook: 1, experiment: 0 }, total: 4 });
  });

  it("answers 422 naming the field for a backwards range, a missing end or an unknown filter", async () => {
    const cases: [string, Record<string, string>, string][] = [
      ["backwards", { from: TO, to: FROM }, "to"],
      ["no end", { from: FROM }, "to"],
      ["not a time", { from: "yesterday", to: TO }, "from"],
      ["a model filter", { from: FROM, to: TO, model: "demo" }, ""],
    ];
    for (const [what, query, field] of cases) {
      const response = await get(new URLSearchParams(query).toString());
      expect(response.status, what).toBe(422);
      const paths = (await errorOf(response)).issues?.map((issue) => issue.path) ?? [];
      expect(paths.length, what).toBeGreaterThan(0);
      if (field) expect(paths, what).toContain(field);
    }
  });

  it("the client's runTriggers() reads the same answer", async () => {
    const client = new ZapClient({
      baseUrl: "http://127.0.0.1:3000",
      apiKey: viewer.token,
      fetch: async (input) => route.GET(keyRequest(viewer.token, new URL(String(input)).pathname + new URL(String(input)).search), routeParams({})),
    });
    expect(await client.runTriggers({ from: FROM, to: TO, graph: "split-graph" })).toEqual({ from: FROM, to: TO, counts: { manual: 1, schedule: 2, webhook: 1, experiment: 0 }, total: 4 });
  });
});
