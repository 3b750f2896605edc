// Feedback on runs and spans (issue 27 §5) and named scores (issue 37 §2)
// through both doors, on SQLite and PostgreSQL: set, change and remove give the
// same result and audit row by action and by route, and the same refusals; one row per user and target,
// also when two users (or one user twice) rate at once; the runs list filters
// top-level runs by the feedback in their trees.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Client } from "@temporalio/client";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { testProviders } from "../../scripts/test-support/databases";
import { doors } from "../../scripts/test-support/parity-doors";
import { actionOutcome, apiRequest, audited, expectSameRefusal, params, routeOutcome, type Outcome } from "../../scripts/test-support/parity";
import { readSpans } from "../run-ledger/read";
import { runFiltersSchema } from "../runs/schemas";
import type { FeedbackItem } from "./schemas";
import { setFeedback } from "./server/feedback";

const temporal = vi.hoisted(() => ({ client: null as unknown }));
vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);
vi.mock("@/lib/temporal/server/client", () => ({ getTemporalClient: () => temporal.client as Client }));

const runRoute = await import("@/app/api/runs/[runId]/feedback/route");
const spanRoute = await import("@/app/api/runs/[runId]/spans/[spanId]/feedback/route");
const { setFeedbackAction } = await import("../actions/set-feedback");
const { removeFeedbackAction } = await import("../actions/remove-feedback");
const { listFeedbackAction } = await import("../actions/list-feedback");
const { listRunPage } = await import("../runs/server/runs");

const providers = await testProviders();

const dataOf = <T,>(outcome: Outcome): T => {
  expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
  return (outcome as { data: T }).data;
};

describe.each(providers)("feedback on $provider", ({ available, create }) => {
  let h: EngineHarness;
  const ids: Record<string, string> = {};
  const as = (role: string) => {
    doors.userId = ids[role] ?? null;
  };
  let rated: string;
  let unrated: string;
  let spanId: string;

  beforeAll(async () => {
    if (!available) return;
    h = await startEngineHarness({ database: await create() });
    temporal.client = h.client;
    doors.db = h.db;
    doors.config = h.config;
    for (const role of ["builder", "viewer", "approver"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
    const graph = singleAgentGraph({ name: "main", model: "demo/test" });
    ({ runId: rated } = await h.engine.startRun({ graph, task: "answer: rated" }));
    ({ runId: unrated } = await h.engine.startRun({ graph, task: "answer: not rated" }));
    await Promise.all([waitForStatus(h.engine, rated, ["completed"]), waitForStatus(h.engine, unrated, ["completed"])]);
    spanId = (await readSpans(h.db, rated)).find((s) => s.kind === "inference")!.id;
  });
  afterAll(async () => h?.stop());

  it.skipIf(!available)("set, change and remove by either door: the same result and audit rows", async () => {
    as("viewer");
    const input = { rating: "down", comment: "Wrong account picked." } as const;
    const byAction = await audited(h.db, async () => actionOutcome(await setFeedbackAction({ runId: rated, spanId, ...input })));
    as("builder");
    const byRoute = await audited(h.db, async () => routeOutcome(await spanRoute.POST(apiRequest("POST", `/api/runs/${rated}/spans/${spanId}/feedback`, input), params({ runId: rated, spanId }))));
    const [a, b] = [dataOf<{ id: string }>(byAction.outcome), dataOf<{ id: string }>(byRoute.outcome)];
    expect({ ...a, id: "<id>" }).toEqual({ ...b, id: "<id>" });
    expect(a).toMatchObject({ rating: "down", comment: "Wrong account picked.", changed: false });
    expect(byAction.audit).toEqual([{ action: "feedback.set", actorId: ids.viewer, target: `${rated}/${spanId}` }]);
    expect(byRoute.audit).toEqual([{ action: "feedback.set", actorId: ids.builder, target: `${rated}/${spanId}` }]);

    as("viewer");
    const changed = dataOf<{ id: string; changed: boolean; comment: string | null }>(actionOutcome(await setFeedbackAction({ runId: rated, spanId, rating: "up" })));
    expect(changed, "changing keeps the one row and drops the old comment").toEqual({ id: a.id, rating: "up", key: null, value: null, category: null, comment: null, changed: true });
    const row = await h.db.auditEvent.findFirstOrThrow({ where: { action: "feedback.set", actorId: ids.viewer }, orderBy: { seq: "desc" } });
    expect(JSON.parse(row.details)).toMatchObject({ rating: "up", previous: "down", comment: false });

    const listed = dataOf<{ items: FeedbackItem[] }>(await routeOutcome(await runRoute.GET(apiRequest("GET", `/api/runs/${rated}/feedback`), params({ runId: rated }))));
    expect(listed.items.map((i) => [i.user.email, i.rating, i.spanId, i.mine]).sort()).toEqual([
      ["builder@zap.local", "down", spanId, false],
      ["viewer@zap.local", "up", spanId, true],
    ]);
    expect(dataOf<{ items: FeedbackItem[] }>(actionOutcome(await listFeedbackAction({ runId: rated }))).items).toEqual(listed.items);

    const removedByAction = await audited(h.db, async () => actionOutcome(await removeFeedbackAction({ runId: rated, spanId })));
    as("builder");
    const removedByRoute = await audited(h.db, async () => routeOutcome(await spanRoute.DELETE(apiRequest("DELETE", `/api/runs/${rated}/spans/${spanId}/feedback`), params({ runId: rated, spanId }))));
    for (const [who, step] of [["viewer", removedByAction], ["builder", removedByRoute]] as const) {
      expect(step.outcome).toEqual({ ok: true, data: { removed: true } });
      expect(step.audit).toEqual([{ action: "feedback.removed", actorId: ids[who], target: `${rated}/${spanId}` }]);
    }
    const again = await routeOutcome(await spanRoute.DELETE(apiRequest("DELETE", `/api/runs/${rated}/spans/${spanId}/feedback`), params({ runId: rated, spanId })));
    expectSameRefusal(again, actionOutcome(await removeFeedbackAction({ runId: rated, spanId })), "removing feedback you no longer have");
    expect(again.ok === false && again.status).toBe(404);
  });

  it.skipIf(!available)("named scores by either door: a key with a number or a category, beside the thumbs, listed, changed and removed, audited", async () => {
    const scoreRun = await import("@/app/api/runs/[runId]/feedback/scores/[key]/route");
    const scoreSpan = await import("@/app/api/runs/[runId]/spans/[spanId]/feedback/scores/[key]/route");
    as("viewer");
    const byAction = await audited(h.db, async () => actionOutcome(await setFeedbackAction({ runId: rated, key: "accuracy", value: 0.8, comment: "close" })));
    expect(dataOf(byAction.outcome)).toMatchObject({ rating: null, key: "accuracy", value: 0.8, category: null, comment: "close", changed: false });
    expect(byAction.audit).toEqual([{ action: "feedback.set", actorId: ids.viewer, target: rated }]);
    expect(JSON.parse((await h.db.auditEvent.findFirstOrThrow({ where: { action: "feedback.set" }, orderBy: { seq: "desc" } })).details), "the score, never the comment's text").toEqual({ key: "accuracy", value: 0.8, comment: true });
    const byRoute = await audited(h.db, async () => routeOutcome(await spanRoute.POST(apiRequest("POST", `/api/runs/${rated}/spans/${spanId}/feedback`, { key: "tone", category: "polite" }), params({ runId: rated, spanId }))));
    expect(dataOf(byRoute.outcome)).toMatchObject({ key: "tone", category: "polite", value: null });
    // The same user's thumbs on the run is another row: a score never replaces it.
    dataOf(actionOutcome(await setFeedbackAction({ runId: rated, rating: "up" })));
    expect(dataOf(actionOutcome(await setFeedbackAction({ runId: rated, key: "accuracy", value: 0.6 })))).toMatchObject({ value: 0.6, changed: true });

    const listed = dataOf<{ items: FeedbackItem[] }>(await routeOutcome(await runRoute.GET(apiRequest("GET", `/api/runs/${rated}/feedback`), params({ runId: rated }))));
    const mine = listed.items.filter((i) => i.mine).map((i) => [i.spanId, i.rating, i.key, i.value, i.category]);
    expect(mine.sort()).toEqual(
      [
        [null, "up", null, null, null],
        [null, null, "accuracy", 0.6, null],
        [spanId, null, "tone", null, "polite"],
      ].sort(),
    );

    const removed = await audited(h.db, async () => routeOutcome(await scoreRun.DELETE(apiRequest("DELETE", `/api/runs/${rated}/feedback/scores/accuracy`), params({ runId: rated, key: "accuracy" }))));
    expect(removed.outcome).toEqual({ ok: true, data: { removed: true } });
    expect(removed.audit).toEqual([{ action: "feedback.removed", actorId: ids.viewer, target: rated }]);
    expect(actionOutcome(await removeFeedbackAction({ runId: rated, spanId, key: "tone" }))).toEqual({ ok: true, data: { removed: true } });
    const again = await routeOutcome(await scoreSpan.DELETE(apiRequest("DELETE", `/api/runs/${rated}/spans/${spanId}/feedback/scores/tone`), params({ runId: rated, spanId, key: "tone" })));
    expectSameRefusal(again, actionOutcome(await removeFeedbackAction({ runId: rated, spanId, key: "tone" })), "removing a score you no longer have");
    expect(again.ok === false && again.error.message).toBe(`You have given no score "tone" on span "${spanId}" of run "${rated}"`);
    expect((await h.db.feedback.findMany({ where: { runId: rated, userId: ids.viewer } })).map((r) => r.rating), "the thumbs stay").toEqual(["up"]);
    await removeFeedbackAction({ runId: rated });
  });

  it.skipIf(!available)("refuses bad input the same way by either door, naming the problem", async () => {
    as("viewer");
    for (const [what, runId, body, status, path] of [
      ["a comment over 2,000 characters", rated, { rating: "down", comment: "x".repeat(2001) }, 422, "comment"],
      ["a rating that is not up or down", rated, { rating: "meh" }, 422, "rating"],
      ["an unknown key", rated, { rating: "up", stars: 5 }, 422, null],
      ["an unknown span", rated, { rating: "up", spanId: "s9999" }, 404, null],
      ["an unknown run", "main-nope", { rating: "up" }, 404, null],
      ["the thumbs and a score at once", rated, { rating: "up", key: "accuracy", value: 1 }, 422, "rating"],
      ["a score without a value", rated, { key: "accuracy" }, 422, "value"],
      ["a score with a number and a category", rated, { key: "accuracy", value: 1, category: "good" }, 422, "value"],
      ["a score key that is no name", rated, { key: "Accuracy Score", value: 1 }, 422, "key"],
    ] as const) {
      const route = await routeOutcome(await runRoute.POST(apiRequest("POST", `/api/runs/${runId}/feedback`, body), params({ runId })));
      expectSameRefusal(route, actionOutcome(await setFeedbackAction({ runId, ...body })), what);
      expect(route.ok === false && route.status, what).toBe(status);
      if (path) expect(route.ok === false && route.error.issues?.map((i) => i.path), what).toEqual([path]);
      if (what === "an unknown key") expect(route.ok === false && JSON.stringify(route.error.issues), what).toContain("stars");
    }
  });

  it.skipIf(!available)("two users rating one run at once keep two rows; one user twice at once keeps one", async () => {
    const users = [{ id: ids.viewer! }, { id: ids.approver! }];
    await Promise.all(users.map((u, i) => setFeedback(u, { runId: rated, rating: i === 0 ? "down" : "up", comment: `from ${i}` }, h.db)));
    await Promise.all([setFeedback({ id: ids.builder! }, { runId: rated, rating: "down", comment: "first" }, h.db), setFeedback({ id: ids.builder! }, { runId: rated, rating: "down", comment: "second" }, h.db)]);
    const rows = await h.db.feedback.findMany({ where: { runId: rated, spanId: "" }, orderBy: { userId: "asc" } });
    expect(rows.map((r) => r.userId).sort()).toEqual([ids.viewer, ids.approver, ids.builder].sort());
    expect(rows.find((r) => r.userId === ids.builder)?.comment).toMatch(/^(first|second)$/);
  });

  it.skipIf(!available)("the runs list filters by feedback: down, up, any and none", async () => {
    const listed = async (feedback: string) => (await listRunPage(runFiltersSchema.parse({ feedback, pageSize: 200 }))).rows.map((r) => r.runId);
    expect(await listed("down")).toContain(rated);
    expect(await listed("down")).not.toContain(unrated);
    expect(await listed("any")).toContain(rated);
    expect(await listed("up")).toContain(rated);
    expect(await listed("none")).toContain(unrated);
    expect(await listed("none")).not.toContain(rated);
    expect(runFiltersSchema.safeParse({ feedback: "sideways" }).success, "an unknown feedback filter is refused").toBe(false);
  });
});
