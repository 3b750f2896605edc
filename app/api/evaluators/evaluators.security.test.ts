// The online evaluators' API (issue 40 §2) through the real routes with API
// keys: a viewer reads but may not create, change, delete or backfill (403);
// bad input is a 4xx naming the field — never a 500 — (a graph, version or
// dataset that does not exist, an unregistered custom scorer, a pattern RE2
// cannot run, a backfill in the future); every change writes its audit row; a
// builder, and the workspace, keep at most EVALUATOR_LIMITS evaluators (409).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorOf, keyRequest, routeParams, startApiCallers, type ApiCallers, type KeyHolder } from "@/scripts/test-support/api-callers";
import { EVALUATOR_LIMITS, type BackfillView, type EvaluationView, type EvaluatorView } from "@/lib/online-eval/schemas";

vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, has: () => false, delete: () => undefined }),
}));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

let callers: ApiCallers;
let list: typeof import("@/app/api/evaluators/route");
let one: typeof import("@/app/api/evaluators/[id]/route");
let backfill: typeof import("@/app/api/evaluators/[id]/backfill/route");
let ofRun: typeof import("@/app/api/runs/[runId]/evaluations/route");
let builder: KeyHolder;
let viewer: KeyHolder;
const GRAPH = "support-triage";

beforeAll(async () => {
  callers = await startApiCallers();
  list = await import("@/app/api/evaluators/route");
  one = await import("@/app/api/evaluators/[id]/route");
  backfill = await import("@/app/api/evaluators/[id]/backfill/route");
  ofRun = await import("@/app/api/runs/[runId]/evaluations/route");
  builder = await callers.holder("builder");
  viewer = await callers.holder("viewer");
});
afterAll(async () => {
  await callers?.stop();
});

const contains = { source: "scorer", scorer: { kind: "contains", text: "refund" } };
const body = (extra: Record<string, unknown> = {}) => ({ name: `ev-${randomUUID().slice(0, 8)}`, graph: GRAPH, enabled: false, checks: [contains], ...extra });
const create = (holder: KeyHolder, sent: unknown) => list.POST(keyRequest(holder.token, "/api/evaluators", { method: "POST", body: sent }), routeParams({}));

async function created(extra: Record<string, unknown> = {}): Promise<EvaluatorView> {
  const response = await create(builder, body(extra));
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { evaluator: EvaluatorView }).evaluator;
}

describe("online evaluators' API", () => {
  it("a builder creates, reads, changes and deletes an evaluator, each change audited", async () => {
    const evaluator = await created({ samplingRate: 0.25, delaySeconds: 60 });
    expect(evaluator).toMatchObject({ graph: GRAPH, samplingRate: 0.25, delaySeconds: 60, enabled: false, target: "run", stats: { spentTodayUsd: 0, meanScore24h: null } });
    expect(Date.parse(evaluator.activeFrom), "activeFrom is the creation time").toBeGreaterThan(Date.now() - 60_000);
    const read = await one.GET(keyRequest(viewer.token, `/api/evaluators/${evaluator.id}`), routeParams({ id: evaluator.id }));
    expect(read.status, "a viewer reads").toBe(200);
    const listed = ((await (await list.GET(keyRequest(viewer.token, "/api/evaluators"), routeParams({}))).json()) as { evaluators: EvaluatorView[] }).evaluators;
    expect(listed.map((e) => e.id)).toContain(evaluator.id);
    const patched = await one.PATCH(keyRequest(builder.token, `/api/evaluators/${evaluator.id}`, { method: "PATCH", body: { samplingRate: 1 } }), routeParams({ id: evaluator.id }));
    expect(patched.status, await patched.clone().text()).toBe(200);
    expect(((await patched.json()) as { evaluator: EvaluatorView }).evaluator.samplingRate).toBe(1);
    const deleted = await one.DELETE(keyRequest(builder.token, `/api/evaluators/${evaluator.id}`, { method: "DELETE" }), routeParams({ id: evaluator.id }));
    expect(await deleted.json()).toEqual({ deleted: true });
    const audit = await callers.db.auditEvent.findMany({ where: { target: evaluator.id }, orderBy: { seq: "asc" } });
    expect(audit.map((a) => [a.action, a.actorId])).toEqual([
      ["evaluator.created", builder.id],
      ["evaluator.updated", builder.id],
      ["evaluator.deleted", builder.id],
    ]);
    const gone = await one.GET(keyRequest(viewer.token, `/api/evaluators/${evaluator.id}`), routeParams({ id: evaluator.id }));
    expect(gone.status).toBe(404);
  });

  it("a viewer may not create, change, delete or backfill (403), and nothing is written", async () => {
    const before = await callers.db.onlineEvaluator.count();
    expect((await create(viewer, body())).status).toBe(403);
    const evaluator = await created();
    const id = evaluator.id;
    expect((await one.PATCH(keyRequest(viewer.token, `/api/evaluators/${id}`, { method: "PATCH", body: { enabled: true } }), routeParams({ id }))).status).toBe(403);
    expect((await one.DELETE(keyRequest(viewer.token, `/api/evaluators/${id}`, { method: "DELETE" }), routeParams({ id }))).status).toBe(403);
    const range = { from: new Date(Date.now() - 7200_000).toISOString(), to: new Date(Date.now() - 3600_000).toISOString() };
    expect((await backfill.POST(keyRequest(viewer.token, `/api/evaluators/${id}/backfill`, { method: "POST", body: range }), routeParams({ id }))).status).toBe(403);
    expect(await callers.db.onlineEvaluator.count()).toBe(before + 1);
    expect(await callers.db.onlineEvaluationBackfill.count({ where: { evaluatorId: id } })).toBe(0);
  });

  it.each([
    ["a graph that does not exist", { graph: "no-such-graph" }, 422, "graph"],
    ["a version the graph lacks", { version: 999 }, 422, "version"],
    ["a dataset that does not exist", { datasetRule: { dataset: "no-such-dataset", below: 0.5 } }, 422, "datasetRule.dataset"],
    ["an unregistered custom scorer", { checks: [{ source: "scorer", scorer: { kind: "custom", name: "nope" } }] }, 422, "checks.0.scorer.name"],
    ["a pattern RE2 cannot run", { checks: [{ source: "guardrail", name: "backref", on: "output", check: { type: "regex", pattern: "(a)\\1" } }] }, 422, "checks.0.check.pattern"],
    ["an unregistered custom check", { checks: [{ source: "guardrail", name: "mystery", on: "input", check: { type: "custom", check: "nope" } }] }, 422, "checks.0.check.check"],
    ["a sampling rate over 1", { samplingRate: 2 }, 422, "samplingRate"],
    ["an unknown field", { colour: "red" }, 422, ""],
    ["no checks", { checks: [] }, 422, "checks"],
  ])("refuses %s with %i naming the field", async (_what, extra, status, path) => {
    const response = await create(builder, body(extra));
    expect(response.status, await response.clone().text()).toBe(status);
    const error = await errorOf(response);
    if (path) expect(error.issues?.map((i) => i.path)).toContain(path);
  });

  it("a name in use is 409; an unknown evaluator 404; a future or reversed backfill 422; a backfill is listed and audited", async () => {
    const evaluator = await created();
    const again = await create(builder, body({ name: evaluator.name }));
    expect(again.status).toBe(409);
    const missing = await one.GET(keyRequest(viewer.token, "/api/evaluators/oev_missing000000"), routeParams({ id: "oev_missing000000" }));
    expect(missing.status).toBe(404);
    const badId = await one.GET(keyRequest(viewer.token, "/api/evaluators/nope"), routeParams({ id: "nope" }));
    expect(badId.status).toBe(422);
    const id = evaluator.id;
    const post = (range: unknown) => backfill.POST(keyRequest(builder.token, `/api/evaluators/${id}/backfill`, { method: "POST", body: range }), routeParams({ id }));
    expect((await post({ from: new Date(Date.now() + 3600_000).toISOString(), to: new Date(Date.now() + 7200_000).toISOString() })).status, "the future").toBe(422);
    expect((await post({ from: new Date(Date.now() - 3600_000).toISOString(), to: new Date(Date.now() - 7200_000).toISOString() })).status, "reversed").toBe(422);
    const started = await post({ from: new Date(Date.now() - 7200_000).toISOString(), to: new Date(Date.now() - 3600_000).toISOString() });
    expect(started.status, await started.clone().text()).toBe(201);
    const view = ((await started.json()) as { backfill: BackfillView }).backfill;
    expect(view).toMatchObject({ evaluatorId: id, status: "running", claimed: 0 });
    const listed = ((await (await backfill.GET(keyRequest(viewer.token, `/api/evaluators/${id}/backfill`), routeParams({ id }))).json()) as { backfills: BackfillView[] }).backfills;
    expect(listed.map((b) => b.id)).toEqual([view.id]);
    const audit = await callers.db.auditEvent.findFirst({ where: { target: id, action: "evaluator.backfill_started" } });
    expect(audit?.actorId).toBe(builder.id);
  });

  it("a run's evaluations: empty for a run nobody evaluated, 404 for a run that does not exist", async () => {
    const runId = `run-${randomUUID()}`;
    await callers.db.run.create({ data: { id: runId, rootRunId: runId, agentName: "main", graphName: GRAPH, task: "t", status: "completed", endedAt: new Date() } });
    const response = await ofRun.GET(keyRequest(viewer.token, `/api/runs/${runId}/evaluations`), routeParams({ runId }));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { evaluations: EvaluationView[] }).evaluations).toEqual([]);
    const none = await ofRun.GET(keyRequest(viewer.token, "/api/runs/run-nope/evaluations"), routeParams({ runId: "run-nope" }));
    expect(none.status).toBe(404);
  });

  it("a builder past their own limit, or a workspace past its limit, may not create another evaluator (409), and nothing is written", async () => {
    const fill = (count: number, createdById: string | null) =>
      callers.db.onlineEvaluator.createMany({
        data: Array.from({ length: count }, () => ({ id: `oev_${randomUUID().replaceAll("-", "").slice(0, 20)}`, name: `fill-${randomUUID().slice(0, 12)}`, graph: GRAPH, checks: JSON.stringify([contains]), enabled: false, activeFrom: new Date(), createdById })),
      });
    const clear = () => callers.db.onlineEvaluator.deleteMany({ where: { name: { startsWith: "fill-" } } });
    try {
      const mine = await callers.db.onlineEvaluator.count({ where: { createdById: builder.id } });
      await fill(Math.max(0, EVALUATOR_LIMITS.perUser - mine), builder.id);
      const before = await callers.db.onlineEvaluator.count();
      const perUser = await create(builder, body());
      expect(perUser.status, "the builder's own limit").toBe(409);
      expect((await errorOf(perUser)).message).toMatch(/most one person may create/);
      expect(await callers.db.onlineEvaluator.count(), "nothing written").toBe(before);
      await clear();

      const all = await callers.db.onlineEvaluator.count();
      await fill(Math.max(0, EVALUATOR_LIMITS.perWorkspace - all), null);
      const perWorkspace = await create(builder, body());
      expect(perWorkspace.status, "the workspace's limit").toBe(409);
      expect((await errorOf(perWorkspace)).message).toMatch(/most it may keep/);
    } finally {
      await clear();
    }
  });
});
