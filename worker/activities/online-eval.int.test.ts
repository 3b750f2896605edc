// The scoring activity of online evaluation against a real database (SQLite and
// PostgreSQL): a row claimed under the daily spend cap is not scored once today's
// spend has reached the cap by the time its turn comes — it is recorded
// skipped_cap, so a batch claimed just under the cap cannot spend past it. A
// low score adds the run to the rule's dataset as the evaluator's last editor
// only while that person still may edit datasets (as a schedule starts runs as
// its owner only while the owner may start runs). A backfill that fails leaves
// none of its claims pending for ever. A check that fails unexpectedly records
// a generic reason: the run page shows it to every reader, and an unexpected
// error's text (a database error's) names source files.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MockActivityEnvironment } from "@temporalio/testing";
import { DefaultLogger } from "@temporalio/worker";
import { createDb, type Db } from "../../lib/db/prisma";
import { applyMigrations } from "../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../scripts/test-support/databases";
import { claimBackfillPage, claimDueEvaluations } from "../../lib/online-eval/claim";
import { recordScores } from "../../lib/online-eval/record";
import { createDataset } from "../../lib/datasets/server/store";
import { invalidatePriceBook } from "../../lib/pricing/server/read-price-book";
import type { ModelRegistry } from "../models/registry";
import { createOnlineEvalActivities } from "./online-eval";

const providers = await testProviders();

/** No check here calls a model: a call would be a defect of the test. */
const noModels: ModelRegistry = {
  resolve(modelId) {
    throw new Error(`no model expected, asked for ${modelId}`);
  },
};

describe.each(providers)("online evaluation's scoring activity on $provider", ({ available, create }) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    if (!available) return;
    database = await create();
    await applyMigrations(database.url);
    db = createDb(database.url);
  });
  afterAll(async () => {
    if (!available) return;
    await db.$disconnect();
    await database.drop();
  });

  async function endedRun(graph: string, endedAt: Date): Promise<string> {
    const id = `run-${randomUUID()}`;
    await db.run.create({ data: { id, rootRunId: id, agentName: "main", graphName: graph, task: "please refund", status: "completed", output: "refund issued", startedAt: new Date(endedAt.getTime() - 1000), endedAt } });
    return id;
  }

  it.skipIf(!available)("records a pending row skipped_cap, unscored, when today's spend reached the cap after it was claimed", async () => {
    const graph = `oes-${randomUUID().slice(0, 8)}`;
    const evaluatorId = `oev_${randomUUID().replaceAll("-", "").slice(0, 20)}`;
    const activeFrom = new Date(Date.now() - 60_000);
    await db.onlineEvaluator.create({
      data: { id: evaluatorId, name: `cap-${randomUUID().slice(0, 8)}`, graph, checks: JSON.stringify([{ source: "scorer", scorer: { kind: "contains", text: "refund" } }]), dailySpendCapUsd: 0.01, activeFrom },
    });
    const runs = [await endedRun(graph, new Date(Date.now() - 3_000)), await endedRun(graph, new Date(Date.now() - 2_000)), await endedRun(graph, new Date(Date.now() - 1_000))];
    // One pass claims all three under the cap (nothing spent yet): each is pending.
    const claim = await claimDueEvaluations(db, evaluatorId, null);
    expect(claim.state === "active" && claim.pending.length, "the three runs claimed pending under the cap").toBe(3);
    const rows = await db.onlineEvaluation.findMany({ where: { evaluatorId }, orderBy: { runEndedAt: "asc" } });
    const [first, ...rest] = rows;
    if (!first) throw new Error("no claim");
    // The first is scored by a judge that spends past the cap.
    await recordScores(db, first, [{ scorer: "judge", value: 1, pass: true, detail: "ok", costUsd: 0.02 }]);

    const activities = createOnlineEvalActivities({ db, models: noModels });
    const env = new MockActivityEnvironment({ activityId: "score" }, { logger: new DefaultLogger("ERROR") });
    await env.run(activities.scoreEvaluations, { ids: rest.map((r) => r.id) });

    const after = await db.onlineEvaluation.findMany({ where: { id: { in: rest.map((r) => r.id) } }, include: { scores: true } });
    expect(after.map((r) => r.status), `runs ${runs.slice(1).join(", ")} past today's cap are not scored`).toEqual(["skipped_cap", "skipped_cap"]);
    expect(after.flatMap((r) => r.scores), "and no score was written for them").toEqual([]);
  });

  /** An evaluator edited last by a new builder, adding runs scored below 1 to a new dataset; answers its first pending row. */
  async function lowScoreSetup(): Promise<{ builder: { id: string }; datasetId: string; evaluationId: string; evaluatorId: string }> {
    const suffix = randomUUID().slice(0, 8);
    const builder = await db.user.create({ data: { email: `b-${suffix}@zap.test`, name: "builder", role: "builder" } });
    const dataset = await createDataset({ id: builder.id }, { name: `low-${suffix}` }, db);
    const graph = `oed-${suffix}`;
    const evaluatorId = `oev_${randomUUID().replaceAll("-", "").slice(0, 20)}`;
    await db.onlineEvaluator.create({
      data: {
        id: evaluatorId,
        name: `rule-${suffix}`,
        graph,
        checks: JSON.stringify([{ source: "scorer", scorer: { kind: "contains", text: "nowhere-in-the-answer" } }]),
        datasetRule: JSON.stringify({ dataset: dataset.name, below: 0.5 }),
        activeFrom: new Date(Date.now() - 60_000),
        createdById: builder.id,
        updatedById: builder.id,
      },
    });
    await endedRun(graph, new Date(Date.now() - 1_000));
    const claim = await claimDueEvaluations(db, evaluatorId, null);
    const [evaluationId] = claim.state === "active" ? claim.pending : [];
    if (!evaluationId) throw new Error("the run was not claimed");
    return { builder, datasetId: dataset.id, evaluationId, evaluatorId };
  }

  const score = (evaluationId: string) => new MockActivityEnvironment({ activityId: "score" }, { logger: new DefaultLogger("ERROR") }).run(createOnlineEvalActivities({ db, models: noModels }).scoreEvaluations, { ids: [evaluationId] });

  it.skipIf(!available)("adds a low-scored run to the rule's dataset as the evaluator's last editor, a builder", async () => {
    const { datasetId, evaluationId } = await lowScoreSetup();
    await score(evaluationId);
    expect(await db.datasetItemRow.count({ where: { datasetId } }), "the run became an item").toBe(1);
  });

  it.skipIf(!available)("adds nothing to the dataset when the evaluator's last editor may no longer edit datasets (demoted or disabled)", async () => {
    for (const change of [{ role: "viewer" }, { disabledAt: new Date() }]) {
      const { builder, datasetId, evaluationId } = await lowScoreSetup();
      await db.user.update({ where: { id: builder.id }, data: change });
      await score(evaluationId);
      const row = await db.onlineEvaluation.findUniqueOrThrow({ where: { id: evaluationId } });
      expect(row.status, "the run is still scored").toBe("scored");
      expect(await db.datasetItemRow.count({ where: { datasetId } }), `no item added by a user changed by ${JSON.stringify(change)}`).toBe(0);
    }
  });

  it.skipIf(!available)("a failed backfill records its claims still pending as failed, with why (no row stays pending for ever)", async () => {
    const graph = `oeb-${randomUUID().slice(0, 8)}`;
    const evaluatorId = `oev_${randomUUID().replaceAll("-", "").slice(0, 20)}`;
    await db.onlineEvaluator.create({ data: { id: evaluatorId, name: `bf-${randomUUID().slice(0, 8)}`, graph, checks: JSON.stringify([{ source: "scorer", scorer: { kind: "contains", text: "refund" } }]), enabled: false, activeFrom: new Date() } });
    const yesterday = Date.now() - 24 * 3600_000;
    await endedRun(graph, new Date(yesterday));
    await endedRun(graph, new Date(yesterday + 1_000));
    const backfillId = `obf_${randomUUID().replaceAll("-", "").slice(0, 20)}`;
    await db.onlineEvaluationBackfill.create({ data: { id: backfillId, evaluatorId, from: new Date(yesterday - 3600_000), to: new Date(yesterday + 3600_000) } });
    const page = await claimBackfillPage(db, backfillId);
    expect(page.state === "active" && page.pending.length, "the page claimed both runs, pending").toBe(2);

    await new MockActivityEnvironment({ activityId: "fail" }, { logger: new DefaultLogger("ERROR") }).run(createOnlineEvalActivities({ db, models: noModels }).failBackfill, { backfillId, error: "the database did not answer" });

    expect((await db.onlineEvaluationBackfill.findUniqueOrThrow({ where: { id: backfillId } })).status).toBe("failed");
    const rows = await db.onlineEvaluation.findMany({ where: { source: backfillId } });
    expect(rows.map((r) => r.status), "no claim of the failed backfill is left pending (the live loop never scores a backfill's rows)").toEqual(["failed", "failed"]);
    for (const row of rows) expect(row.error).toMatch(/backfill .* failed.*the database did not answer/);
  });

  it.skipIf(!available)("an attempt that fails after a judge answered records what the judge cost: today's spend (the cap) counts it", async () => {
    const graph = `oej-${randomUUID().slice(0, 8)}`;
    const evaluatorId = `oev_${randomUUID().replaceAll("-", "").slice(0, 20)}`;
    const judgeModel = `test-judge/${randomUUID().slice(0, 8)}`;
    // $1 per million input and output tokens: the judge's 2,000 tokens cost $0.002.
    const admin = await db.user.create({ data: { email: `${randomUUID()}@zap.test`, name: "Prices", role: "admin" } });
    await db.modelPrice.create({ data: { model: judgeModel, effectiveFrom: new Date(0), input: 1, output: 1, createdById: admin.id } });
    invalidatePriceBook(db); // as the prices page does after an edit: the worker's cached book would not have it for 5 s
    const judgeOnly: ModelRegistry = {
      resolve(modelId) {
        if (modelId !== judgeModel) throw new Error(`no model expected but the judge, asked for ${modelId}`);
        return { modelName: modelId, provider: { generate: async () => ({ content: '{"score": 1, "reason": "mentions the refund"}', toolCalls: [], usage: { inputTokens: 1_000, outputTokens: 1_000 }, finishReason: "stop" }) } };
      },
    };
    const checks = [
      { source: "scorer", scorer: { kind: "judge", rubric: "Does the answer mention the refund?", model: judgeModel } },
      { source: "scorer", scorer: { kind: "contains", text: "refund" } },
    ];
    await db.onlineEvaluator.create({ data: { id: evaluatorId, name: `j-${randomUUID().slice(0, 8)}`, graph, checks: JSON.stringify(checks), dailySpendCapUsd: 1, activeFrom: new Date(Date.now() - 60_000) } });
    await endedRun(graph, new Date(Date.now() - 1_000));
    const claim = await claimDueEvaluations(db, evaluatorId, null);
    const [evaluationId] = claim.state === "active" ? claim.pending : [];
    if (!evaluationId) throw new Error("the run was not claimed");
    // The second check's turn fails (a database that stopped answering, say): the judge has answered by then.
    let checksBegun = 0;
    const activities = createOnlineEvalActivities({ db, models: judgeOnly, beforeCheck: async () => (++checksBegun === 2 ? Promise.reject(new Error("the database did not answer")) : undefined) });
    await new MockActivityEnvironment({ activityId: "score" }, { logger: new DefaultLogger("ERROR") }).run(activities.scoreEvaluations, { ids: [evaluationId] });
    expect(checksBegun, "the judge ran, then the second check began").toBe(2);
    const row = await db.onlineEvaluation.findUniqueOrThrow({ where: { id: evaluationId } });
    expect(row.status).toBe("failed");
    expect(row.costUsd, "the judge's cost is on the failed row").toBeCloseTo(0.002, 6);
    const today = await db.onlineEvaluation.aggregate({ where: { evaluatorId }, _sum: { costUsd: true } });
    expect(today._sum.costUsd, "today's spend, which the daily cap reads").toBeCloseTo(0.002, 6);
  });

  it.skipIf(!available)("a check that fails unexpectedly is recorded failed with a generic reason, not the error's text (paths, queries)", async () => {
    const graph = `oex-${randomUUID().slice(0, 8)}`;
    const evaluatorId = `oev_${randomUUID().replaceAll("-", "").slice(0, 20)}`;
    await db.onlineEvaluator.create({ data: { id: evaluatorId, name: `x-${randomUUID().slice(0, 8)}`, graph, checks: JSON.stringify([{ source: "scorer", scorer: { kind: "contains", text: "refund" } }]), activeFrom: new Date(Date.now() - 60_000) } });
    await endedRun(graph, new Date(Date.now() - 1_000));
    const claim = await claimDueEvaluations(db, evaluatorId, null);
    const [evaluationId] = claim.state === "active" ? claim.pending : [];
    if (!evaluationId) throw new Error("the run was not claimed");
    const leaky = new Error("Invalid `prisma.runEvent.findMany()` invocation in\n/srv/zap/lib/run-ledger/read.ts:42:7\n\n→ 42 SELECT secret_column FROM run_events");
    const activities = createOnlineEvalActivities({ db, models: noModels, beforeCheck: () => Promise.reject(leaky) });
    await new MockActivityEnvironment({ activityId: "score" }, { logger: new DefaultLogger("ERROR") }).run(activities.scoreEvaluations, { ids: [evaluationId] });
    const row = await db.onlineEvaluation.findUniqueOrThrow({ where: { id: evaluationId } });
    expect(row.status).toBe("failed");
    expect(row.error, "the reason readers see names no file and no query").not.toMatch(/\/srv\/zap|prisma|SELECT/);
    expect(row.error).toMatch(/a check failed/);
  });
});
