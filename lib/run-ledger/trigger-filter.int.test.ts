// The runs list's trigger and webhook filters (issue 39 §1) on SQLite and
// PostgreSQL: for each trigger, the runs the list's reader lists are exactly
// the runs the overview's split counts for it (same range and graph), every
// combination of links included (a schedule's run in an experiment counts as
// the schedule's, and is listed there only); the webhook filter lists one
// endpoint's runs, and with a trigger the two narrow together.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/prisma";
import { applyMigrations } from "../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../scripts/test-support/databases";
import { createRunRow } from "./write";
import { readRunRows, type RunRowFilter } from "./read";
import { readRunLinkGroups } from "./trigger-counts";
import { countByTrigger, RUN_TRIGGERS, runTriggerOf } from "./triggers";
import { scaledWait } from "../../scripts/test-support/wait-scale";

const providers = await testProviders();
const FROM = new Date("2026-04-01T10:00:00.000Z");
const TO = new Date("2026-04-01T11:59:59.999Z");
const at = (minutes: number) => new Date(FROM.getTime() + minutes * 60_000);

describe.each(providers)("the runs list's trigger filter on $provider", ({ available, create }) => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    if (!available) return;
    database = await create();
    await applyMigrations(database.url);
    db = createDb(database.url);
  }, scaledWait(60_000));
  afterAll(async () => {
    if (!available) return;
    await db.$disconnect();
    await database.drop();
  });

  async function run(id: string, startedAt: Date, origin: { scheduleId?: string; webhookId?: string; experimentId?: string } = {}, graph = "triage"): Promise<void> {
    await createRunRow(db, { id, agentName: "main", graphName: graph, agentVersionId: null, startedBy: "ann@zap.local", task: "t", context: {} }, origin);
    await db.run.update({ where: { id }, data: { startedAt } });
  }

  it.skipIf(!available)("each trigger lists exactly the runs the split counts for it", async () => {
    await run("person-1", at(1));
    await run("person-2", at(2));
    await run("sched-1", at(3), { scheduleId: "sch_aaaaaaaa01" });
    await run("sched-exp", at(4), { scheduleId: "sch_aaaaaaaa01", experimentId: "exp-1" });
    await run("sched-hook", at(5), { scheduleId: "sch_bbbbbbbb02", webhookId: "whk_aaaaaaaa01" });
    await run("hook-1", at(6), { webhookId: "whk_aaaaaaaa01" });
    await run("hook-2", at(7), { webhookId: "whk_bbbbbbbb02" });
    await run("hook-exp", at(8), { webhookId: "whk_aaaaaaaa01", experimentId: "exp-1" });
    await run("exp-1", at(9), { experimentId: "exp-1" });
    // Left out by the range, the graph or being a sub-run.
    await run("early-hook", at(-1), { webhookId: "whk_aaaaaaaa01" });
    await run("billing-sched", at(10), { scheduleId: "sch_aaaaaaaa01" }, "billing");
    await db.run.create({ data: { id: "hook-1-child", rootRunId: "hook-1", parentRunId: "hook-1", agentName: "helper", graphName: "triage", task: "t", startedAt: at(6) } });

    // The overview's split (experiment runs counted) and the runs list's filter as its drill-down asks (experiments=1).
    const range: RunRowFilter = { topLevel: true, graph: "triage", startedFrom: FROM, startedTo: TO };
    const counts = countByTrigger(await readRunLinkGroups(db, range));
    expect(counts).toEqual({ manual: 2, schedule: 3, webhook: 3, experiment: 1 });
    const everyRun = (await readRunRows(db, range, { take: 100 })).rows;
    for (const trigger of RUN_TRIGGERS) {
      const listed = await readRunRows(db, { ...range, trigger }, { take: 100 });
      expect(listed.total, trigger).toBe(counts[trigger]);
      expect(listed.rows.map((r) => r.id).sort(), trigger).toEqual(everyRun.filter((r) => runTriggerOf(r) === trigger).map((r) => r.id).sort());
    }
    expect(new Set(everyRun.map((r) => r.id)), "the triggers' lists together are the range's runs, none twice").toEqual(new Set(["person-1", "person-2", "sched-1", "sched-exp", "sched-hook", "hook-1", "hook-2", "hook-exp", "exp-1"]));
  });

  it.skipIf(!available)("the webhook filter lists one endpoint's runs; with a trigger both narrow", async () => {
    const range: RunRowFilter = { topLevel: true, graph: "triage", startedFrom: FROM, startedTo: TO };
    const ids = async (filter: RunRowFilter) => (await readRunRows(db, filter, { take: 100 })).rows.map((r) => r.id).sort();
    expect(await ids({ ...range, webhookId: "whk_aaaaaaaa01" })).toEqual(["hook-1", "hook-exp", "sched-hook"]);
    expect(await ids({ ...range, webhookId: "whk_aaaaaaaa01", trigger: "webhook" }), "the run its schedule started is the schedule's").toEqual(["hook-1", "hook-exp"]);
    expect(await ids({ ...range, webhookId: "whk_aaaaaaaa01", trigger: "webhook", hideExperimentRuns: true }), "the list's default hides experiment runs").toEqual(["hook-1"]);
    expect(await ids({ ...range, webhookId: "whk_aaaaaaaa01", trigger: "manual" })).toEqual([]);
    expect(await ids({ ...range, scheduleId: "sch_aaaaaaaa01", trigger: "schedule" })).toEqual(["sched-1", "sched-exp"]);
    expect(await ids({ topLevel: true, webhookId: "whk_aaaaaaaa01" }), "without the range, the earlier delivery's run too").toEqual(["early-hook", "hook-1", "hook-exp", "sched-hook"]);
  });
});
