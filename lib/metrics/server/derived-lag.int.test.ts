// The answers that read derived rows say how far those rows trail the run ledger,
// on SQLite and PostgreSQL: a ledger write the deriver has not taken in yet shows
// as `derived` on the dashboard (always) and as `indexBehind` on the runs list
// (only when a search, tool or model filter or the "stuck or burning" view
// narrowed it), with the oldest write's age; once deriveQueued has run, both say
// it is caught up and the search finds what it missed.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDb, type Db } from "../../db/prisma";
import { readDeriveLag } from "../../db/derive-lag";
import { applyMigrations } from "../../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../../scripts/test-support/databases";
import { freePort } from "../../../scripts/test-support/ports";
import { useBlockDatabase } from "../../../scripts/test-support/block-database";
import type { LedgerBatch } from "../../contract/workflow";
import type { RunEvent } from "../../contract/types";
import { writeLedgerGroup } from "../../run-ledger/write";
import { deriveQueued } from "../../run-ledger/deriver";
import { runFiltersSchema, type RunListPage } from "../../runs/schemas";
import { readMetricsDashboard } from "./dashboard";

// No Temporal here: the list's statuses come from the ledger (a failed connect would cost a second a page).
vi.mock("../../engine/visibility", () => ({ readVisibility: vi.fn(async () => Promise.reject(new Error("no Temporal in this test"))) }));

const { listRunPage } = await import("../../runs/server/runs");

const providers = await testProviders();
/** How old the queued write is made: the answers' lag must be at least this. */
const AGE_MS = 5_000;

/** A finished run that called a tool on a model, with a word to search for. */
function batch(runId: string, word: string): LedgerBatch {
  const at = new Date(Date.now() - 60_000).toISOString();
  const events = [
    { type: "run_started", agentName: "main", task: `Find the ${word} parcel`, depth: 0 },
    { type: "inference_completed", iteration: 1, model: "demo/assistant", usage: { inputTokens: 10, outputTokens: 2 }, latencyMs: 40, toolCalls: 1, attempts: 1 },
    { type: "tool_call_completed", iteration: 1, callId: "c1", tool: "lookup_order", outcome: "ok", durationMs: 5, attempts: 1, result: "{}" },
    { type: "run_completed", output: "found" },
  ].map((body, i) => ({ ...body, seq: i + 1, at }) as RunEvent);
  return {
    run: { runId, rootRunId: runId, parentRunId: null, agentName: "main", task: `Find the ${word} parcel`, context: {}, startedBy: "ann@zap.local", graphName: "triage", agentVersionId: null },
    summary: { status: "completed", iteration: 1, usage: { inputTokens: 10, outputTokens: 2 }, pendingApprovals: 0, lastEventSeq: events.length, messageCount: 0, generation: 0, output: "found", error: null, startedAt: at, endedAt: at },
    events,
    spans: [],
    messages: [],
    approvals: [],
  };
}

const list = (query: Record<string, string>): Promise<RunListPage> => listRunPage(runFiltersSchema.parse(query));

describe.each(providers)("derived rows' lag in the answers on $provider", ({ provider, available, create }) => {
  let database: TestDatabase;
  let db: Db;
  let restoreDatabase = () => {};

  beforeAll(async () => {
    if (!available) return;
    database = await create();
    await applyMigrations(database.url);
    db = createDb(database.url);
    // listRunPage reads through getDb(): this database.
    restoreDatabase = useBlockDatabase(provider, database, db);
    process.env.TEMPORAL_ADDRESS = `127.0.0.1:${await freePort()}`;
  });

  afterAll(async () => {
    if (!available) return;
    restoreDatabase();
    await db.$disconnect();
    await database.drop();
  });

  it.skipIf(!available)("says how many ledger writes are not derived yet and how old the oldest is, until the deriver has run", async () => {
    // One run derived already, so a search has something to find while the next write waits.
    await writeLedgerGroup(db, [batch("lag-old", "wombat")]);
    await deriveQueued(db);
    const caughtUp = await readMetricsDashboard(db, { range: "1h" });
    expect(caughtUp.derived, "nothing queued: caught up").toEqual({ queued: 0, lagMs: 0 });
    expect("indexBehind" in (await list({ q: "wombat" })), "a search over a caught-up index says nothing").toBe(false);

    // The ledger's transaction queues its rows for the deriver; made AGE_MS old, as if the deriver were slow.
    await writeLedgerGroup(db, [batch("lag-new", "quokka")]);
    await db.deriveQueueItem.updateMany({ data: { at: new Date(Date.now() - AGE_MS) } });

    const behind = await readMetricsDashboard(db, { range: "1h" });
    expect(behind.derived.queued, "one ledger write not counted yet").toBe(1);
    expect(behind.derived.lagMs, "at least the queued write's age").toBeGreaterThanOrEqual(AGE_MS);
    expect(behind.derived.lagMs, "and not absurdly more").toBeLessThan(AGE_MS + 60_000);
    expect(behind.totals.runs_started, "the rollups have only the derived run").toBe(1);

    const narrowedByDerivedRows: Record<string, string>[] = [{ q: "quokka" }, { q: "wombat" }, { tool: "lookup_order" }, { model: "demo/assistant" }, { view: "stuck" }];
    for (const query of narrowedByDerivedRows) {
      const page = await list(query);
      expect(page.indexBehind?.queued, `${JSON.stringify(query)}: one write not indexed yet`).toBe(1);
      expect(page.indexBehind?.lagMs, `${JSON.stringify(query)}: at least its age`).toBeGreaterThanOrEqual(AGE_MS);
    }
    expect((await list({ q: "quokka" })).rows, "the search misses the write the index has not taken in").toEqual([]);
    const readingTheLedgerAlone: Record<string, string>[] = [{}, { status: "completed" }, { graph: "triage" }];
    for (const query of readingTheLedgerAlone) {
      expect("indexBehind" in (await list(query)), `${JSON.stringify(query)} reads the ledger alone: no lag to tell`).toBe(false);
    }

    expect(await deriveQueued(db), "the deriver takes the queued write in").toBe(1);
    const after = await readMetricsDashboard(db, { range: "1h" });
    expect(after.derived).toEqual({ queued: 0, lagMs: 0 });
    expect(after.totals.runs_started, "both runs counted").toBe(2);
    const found = await list({ q: "quokka" });
    expect("indexBehind" in found, "caught up: the field is absent").toBe(false);
    expect(found.rows.map((r) => r.runId)).toEqual(["lag-new"]);
    expect((await list({ tool: "lookup_order" })).indexBehind).toBeUndefined();
  });

  it.skipIf(!available)("reads the lag at the given moment, never negative", async () => {
    await deriveQueued(db); // whatever an earlier test left queued
    const queuedAt = new Date(Date.now() - 2_000);
    await db.deriveQueueItem.create({ data: { at: queuedAt, rows: "[]" } });
    await db.deriveQueueItem.create({ data: { at: new Date(), rows: "[]" } });
    expect(await readDeriveLag(db, new Date(queuedAt.getTime() + 1_234)), "the oldest row's age, by id order").toEqual({ queued: 2, lagMs: 1_234 });
    expect(await readDeriveLag(db, new Date(queuedAt.getTime() - 1_000)), "a clock behind the writer's reads as no wait").toEqual({ queued: 2, lagMs: 0 });
    await deriveQueued(db);
    expect(await readDeriveLag(db)).toEqual({ queued: 0, lagMs: 0 });
  });
});
