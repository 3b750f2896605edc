// "How runs started" (the overview's split by trigger) read from the runs
// table on SQLite and PostgreSQL: rows written by the engine's own writer with
// each origin (a person, a schedule, a webhook endpoint, an experiment), sub-runs,
// runs outside the range and of another graph; the counts are per trigger, and
// their total is exactly what the runs list's reader lists for the same range
// (the run tiles' drill-down), so the split adds up to "Runs started".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/prisma";
import { applyMigrations } from "../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../scripts/test-support/databases";
import { createRunRow } from "./write";
import { readRunRows, type RunRowFilter } from "./read";
import { readRunLinkGroups } from "./trigger-counts";
import { countByTrigger } from "./triggers";
import { scaledWait } from "../../scripts/test-support/wait-scale";

const providers = await testProviders();
const FROM = new Date("2026-03-01T10:00:00.000Z");
const TO = new Date("2026-03-01T11:59:59.999Z");
const at = (minutes: number) => new Date(FROM.getTime() + minutes * 60_000);

const readRunTriggerCounts = async (db: Db, filter: RunRowFilter) => countByTrigger(await readRunLinkGroups(db, filter));

describe.each(providers)("runs by trigger on $provider", ({ available, create }) => {
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

  /** A top-level run as the engine writes its row, with this origin, started at `startedAt`. */
  async function run(id: string, startedAt: Date, origin: { scheduleId?: string; webhookId?: string; experimentId?: string } = {}, graph = "triage"): Promise<void> {
    await createRunRow(db, { id, agentName: "main", graphName: graph, agentVersionId: null, startedBy: "ann@zap.local", task: "t", context: {} }, origin);
    await db.run.update({ where: { id }, data: { startedAt } });
  }

  it.skipIf(!available)("counts the top-level runs started in the range by what started them; the total is what the runs list lists", async () => {
    await run("manual-1", at(5));
    await run("manual-2", at(60));
    await run("sched-1", at(10), { scheduleId: "sch_aaaaaaaa01" });
    await run("sched-2", at(70), { scheduleId: "sch_aaaaaaaa01" });
    await run("sched-3", at(100), { scheduleId: "sch_bbbbbbbb02" });
    await run("hook-1", at(20), { webhookId: "whk_aaaaaaaa01" });
    await run("exp-1", at(30), { experimentId: "exp-1" });
    // Left out: a sub-run (counted with its root), a run before the range, one after it.
    await db.run.create({ data: { id: "sched-1-child", rootRunId: "sched-1", parentRunId: "sched-1", agentName: "helper", graphName: "triage", task: "t", startedAt: at(11) } });
    await run("early", at(-1), { webhookId: "whk_aaaaaaaa01" });
    await run("late", new Date(TO.getTime() + 1), { scheduleId: "sch_aaaaaaaa01" });
    // Another graph's runs count only without the graph filter.
    await run("other-hook", at(40), { webhookId: "whk_cccccccc03" }, "billing");

    const range = { topLevel: true, startedFrom: FROM, startedTo: TO };
    expect(await readRunTriggerCounts(db, { ...range, graph: "triage" })).toEqual({ manual: 2, schedule: 3, webhook: 1, experiment: 1 });
    const all = await readRunTriggerCounts(db, range);
    expect(all).toEqual({ manual: 2, schedule: 3, webhook: 2, experiment: 1 });
    const listed = await readRunRows(db, range, { take: 1 });
    expect(Object.values(all).reduce((sum, n) => sum + n, 0), "the split adds up to the runs the list shows for the range").toBe(listed.total);
    expect(await readRunTriggerCounts(db, { ...range, graph: "nobody" })).toEqual({ manual: 0, schedule: 0, webhook: 0, experiment: 0 });
  });
});
