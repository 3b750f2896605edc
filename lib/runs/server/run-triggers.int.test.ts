// GET /api/runs/triggers (the overview's "How runs started") through the real
// route with API keys over a migrated, seeded SQLite database: every role
// reads the split of the runs started in a range; bad input is answered 422
// naming the field; the client's runTriggers() reads the same answer. The
// runs list (GET /api/runs/list and the client's listRuns(), one schema) asked
// as a bar's drill-down asks lists exactly the runs that bar counts.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorOf, keyRequest, routeParams, startApiCallers, type ApiCallers, type KeyHolder } from "../../../scripts/test-support/api-callers";
import { createRunRow } from "../../run-ledger/write";
import { ZapClient } from "../../client/zap-client";
import { scaledWait } from "../../../scripts/test-support/wait-scale";

vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, has: () => false, delete: () => undefined }),
}));
// Every request here carries an API key, which the routes check themselves; no browser session.
vi.mock("@/lib/auth/server/auth", () => ({ auth: async () => null, signIn: async () => undefined }));

let callers: ApiCallers;
let viewer: KeyHolder;
let route: typeof import("@/app/api/runs/triggers/route");
let listRoute: typeof import("@/app/api/runs/list/route");
const FROM = "2026-02-01T00:00:00.000Z";
const TO = "2026-02-01T23:59:59.999Z";

beforeAll(async () => {
  callers = await startApiCallers();
  route = await import("@/app/api/runs/triggers/route");
  listRoute = await import("@/app/api/runs/list/route");
  viewer = await callers.holder("viewer", "split-viewer");
  const rows: [string, { scheduleId?: string; webhookId?: string; experimentId?: string }, string][] = [
    ["split-manual", {}, "2026-02-01T08:00:00.000Z"],
    ["split-sched-a", { scheduleId: "sch_splitaaaa1" }, "2026-02-01T09:00:00.000Z"],
    ["split-sched-b", { scheduleId: "sch_splitaaaa1" }, "2026-02-01T10:00:00.000Z"],
    ["split-hook", { webhookId: "whk_splitaaaa1" }, "2026-02-01T11:00:00.000Z"],
    ["split-hook-b", { webhookId: "whk_splitbbbb2" }, "2026-02-01T11:30:00.000Z"],
    ["split-exp", { experimentId: "exp-split" }, "2026-02-01T12:00:00.000Z"],
    ["split-next-day", { webhookId: "whk_splitaaaa1" }, "2026-02-02T00:00:00.000Z"],
  ];
  for (const [id, origin, startedAt] of rows) {
    await createRunRow(callers.db, { id, agentName: "main", graphName: "split-graph", agentVersionId: null, startedBy: "ann@zap.local", task: "t", context: {} }, origin);
    await callers.db.run.update({ where: { id }, data: { startedAt: new Date(startedAt) } });
  }
}, scaledWait(60_000));
afterAll(async () => {
  await callers?.stop();
});

const get = (query: string) => route.GET(keyRequest(viewer.token, `/api/runs/triggers?${query}`), routeParams({}));

describe("GET /api/runs/triggers", () => {
  it("a viewer reads the runs started in the range by what started them, the next day's left out", async () => {
    const response = await get(new URLSearchParams({ from: FROM, to: TO, graph: "split-graph" }).toString());
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toEqual({ from: FROM, to: TO, counts: { manual: 1, schedule: 2, webhook: 2, experiment: 1 }, total: 6 });
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
    expect(await client.runTriggers({ from: FROM, to: TO, graph: "split-graph" })).toEqual({ from: FROM, to: TO, counts: { manual: 1, schedule: 2, webhook: 2, experiment: 1 }, total: 6 });
  });
});

describe("GET /api/runs/list by trigger and webhook", () => {
  const list = (query: Record<string, string>) => listRoute.GET(keyRequest(viewer.token, `/api/runs/list?${new URLSearchParams(query).toString()}`), routeParams({}));
  const listedIds = async (query: Record<string, string>) => {
    const response = await list(query);
    expect(response.status, await response.clone().text()).toBe(200);
    const page = (await response.json()) as { rows: { runId: string }[]; total: number };
    expect(page.rows.length).toBe(page.total);
    return page.rows.map((row) => row.runId).sort();
  };

  it("each trigger lists, as the bar's drill-down asks, exactly as many runs as the split counts", async () => {
    const split = (await (await get(new URLSearchParams({ from: FROM, to: TO, graph: "split-graph" }).toString())).json()) as { counts: Record<string, number> };
    const expected: Record<string, string[]> = { manual: ["split-manual"], schedule: ["split-sched-a", "split-sched-b"], webhook: ["split-hook", "split-hook-b"], experiment: ["split-exp"] };
    for (const [trigger, ids] of Object.entries(expected)) {
      expect(await listedIds({ from: FROM, to: TO, graph: "split-graph", trigger, experiments: "1" }), trigger).toEqual(ids);
      expect(split.counts[trigger], trigger).toBe(ids.length);
    }
    expect(await listedIds({ from: FROM, to: TO, graph: "split-graph", trigger: "experiment" }), "asking for experiment runs shows them without the checkbox").toEqual(["split-exp"]);
  });

  it("the webhook filter lists one endpoint's runs, the next day's too without a range", async () => {
    expect(await listedIds({ graph: "split-graph", webhook: "whk_splitaaaa1" })).toEqual(["split-hook", "split-next-day"]);
    expect(await listedIds({ graph: "split-graph", webhook: "whk_splitaaaa1", trigger: "manual" })).toEqual([]);
  });

  it("answers 422 naming the parameter for an unknown trigger or a value that is no endpoint id", async () => {
    for (const [query, field] of [[{ trigger: "person" }, "trigger"], [{ webhook: "sch_splitaaaa1" }, "webhook"]] as const) {
      const response = await list(query);
      expect(response.status, field).toBe(422);
      expect((await errorOf(response)).issues?.map((issue) => issue.path), field).toContain(field);
    }
  });

  it("the client's listRuns() takes the same filters", async () => {
    const client = new ZapClient({
      baseUrl: "http://127.0.0.1:3000",
      apiKey: viewer.token,
      fetch: async (input) => listRoute.GET(keyRequest(viewer.token, new URL(String(input)).pathname + new URL(String(input)).search), routeParams({})),
    });
    const page = await client.listRuns({ from: FROM, to: TO, graph: "split-graph", trigger: "webhook", webhook: "whk_splitbbbb2" });
    expect(page.rows.map((row) => row.runId)).toEqual(["split-hook-b"]);
  });
});
