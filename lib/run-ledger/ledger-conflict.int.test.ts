// The ledger never merges two executions under one run id (issue 22 §1): a
// batch of another execution of a child run is refused with an error naming
// the run, and nothing of it is written; a replayed or retried batch of the same
// execution is still written once. On SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/prisma";
import { applyMigrations } from "../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../scripts/test-support/databases";
import { createLedgerWriter, LedgerConflictError, writeLedgerBatch } from "./write";
import type { LedgerBatch } from "../contract/workflow";
import type { RunEvent } from "../contract/types";

const providers = await testProviders();

function batch(runId: string, startedAt: string, task: string, events: RunEvent[]): LedgerBatch {
  return {
    run: { runId, rootRunId: "root", parentRunId: "root", agentName: "flight-researcher", task, context: {}, startedBy: null, graphName: "trip-planner", agentVersionId: null },
    summary: { status: "thinking", iteration: 1, usage: { inputTokens: 0, outputTokens: 0 }, pendingApprovals: 0, lastEventSeq: events.at(-1)?.seq ?? 0, messageCount: 0, generation: 0, output: null, error: null, startedAt, endedAt: null },
    events,
    spans: [],
    messages: [],
    approvals: [],
  };
}
const started = (at: string, task: string): RunEvent => ({ seq: 1, at, type: "run_started", agentName: "flight-researcher", task, depth: 1 });

describe.each(providers)("ledger conflicts on $provider", ({ available, create }) => {
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

  it.skipIf(!available)("refuses another execution's batch under the same child run id, naming it, and writes none of it", async () => {
    const paris = "2026-03-01T10:00:00.000Z";
    const rome = "2026-03-01T11:00:00.000Z";
    await writeLedgerBatch(db, batch("root.node-flights-1", paris, "Paris", [started(paris, "Paris")]));
    // The same execution's batch again (a retried or replayed write): written once, no error.
    await writeLedgerBatch(db, batch("root.node-flights-1", paris, "Paris", [started(paris, "Paris")]));
    expect(await db.runEvent.count({ where: { runId: "root.node-flights-1" } })).toBe(1);

    const second = batch("root.node-flights-1", rome, "Rome", [started(rome, "Rome"), { seq: 2, at: rome, type: "iteration_started", iteration: 1 }]);
    const error = await writeLedgerBatch(db, second).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerConflictError);
    expect((error as Error).message).toMatch(/^run root\.node-flights-1 already has a ledger of another execution \(started 2026-03-01T10:00:00\.000Z, this batch's execution 2026-03-01T11:00:00\.000Z\)/);
    // Nothing of the second execution landed: not its task, not its new event.
    const row = await db.run.findUniqueOrThrow({ where: { id: "root.node-flights-1" } });
    expect(row.task).toBe("Paris");
    expect(await db.runEvent.count({ where: { runId: "root.node-flights-1" } })).toBe(1);

    // Through the worker's group writer too: the conflicting batch is rejected, the others in its group land.
    const writer = createLedgerWriter(db);
    const results = await Promise.allSettled([writer.write(second), writer.write(batch("root.node-hotels-1", paris, "Paris", [started(paris, "Paris")]))]);
    expect(results[0]).toMatchObject({ status: "rejected", reason: expect.any(LedgerConflictError) });
    expect(results[1]).toMatchObject({ status: "fulfilled" });
    expect(await db.runEvent.count({ where: { runId: "root.node-hotels-1" } })).toBe(1);
  });
});
