// A plan run's outcome as a column of the runs table (issue 22 §1), on SQLite
// and PostgreSQL: the ledger writer takes it from a batch's last plan_finished
// event (a later turn's plan replaces it, a batch without one leaves it), the
// runs list shows and filters by it (through the route, a bad value is a 422
// naming the parameter), and the run header and stored summary carry it.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import type { SessionUser } from "../../auth/server/session";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../../scripts/test-support/databases";
import { freePort } from "../../../scripts/test-support/ports";
import { useBlockDatabase } from "../../../scripts/test-support/block-database";
import { writeLedgerBatch, writeLedgerGroup } from "../../run-ledger/write";
import { readRunSummary } from "../../run-ledger/read";
import type { LedgerBatch } from "../../contract/workflow";
import type { RunEvent } from "../../contract/types";
import type { RunListPage } from "../schemas";

const viewer: SessionUser = { id: "viewer-1", email: "viewer@zap.local", name: "Vic", role: "viewer" };
vi.mock("../../auth/server/session", () => ({ requireUser: vi.fn(async () => viewer) }));
// No Temporal here: the list's statuses and outcomes come from the ledger (each refused connect cost seconds a page).
vi.mock("../../engine/visibility", () => ({ readVisibility: vi.fn(async () => Promise.reject(new Error("no Temporal in this test"))) }));

const { listRunPage, runHeader } = await import("./runs");
const { GET: listRoute } = await import("../../../app/api/runs/list/route");

const providers = await testProviders();
const T0 = Date.parse("2026-03-01T10:00:00Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();

type Outcome = Extract<RunEvent, { type: "plan_finished" }>["outcome"];
const planFinished = (seq: number, outcome: Outcome, counts: { completed: number; failed: number; skipped: number; cancelled?: number }): RunEvent => ({ seq, at: at(seq * 100), type: "plan_finished", outcome, ...counts });
const iteration = (seq: number): RunEvent => ({ seq, at: at(seq * 100), type: "iteration_started", iteration: seq });

function batch(runId: string, events: RunEvent[], status: LedgerBatch["summary"]["status"] = "completed"): LedgerBatch {
  return {
    run: { runId, rootRunId: runId, parentRunId: null, agentName: "trip-planner", task: `task of ${runId}`, context: {}, startedBy: "builder@zap.local", graphName: "trip-planner", agentVersionId: null },
    summary: { status, iteration: 1, usage: { inputTokens: 0, outputTokens: 0 }, pendingApprovals: 0, lastEventSeq: events.at(-1)?.seq ?? 0, messageCount: 0, generation: 0, output: null, error: null, startedAt: at(0), endedAt: null },
    events,
    spans: [],
    messages: [],
    approvals: [],
  };
}

const get = (path: string) => new NextRequest(`http://127.0.0.1${path}`, { headers: { host: "127.0.0.1" } });
const noParams = { params: Promise.resolve({} as Record<string, never>) };

describe.each(providers)("plan outcome on $provider", ({ provider, available, create }) => {
  let database: TestDatabase;
  let db: Db;
  let restoreDatabase = () => {};
  const outcomeOf = async (runId: string) => (await db.run.findUniqueOrThrow({ where: { id: runId }, select: { planOutcome: true } })).planOutcome;

  beforeAll(async () => {
    if (!available) return;
    database = await create();
    await applyMigrations(database.url);
    db = createDb(database.url);
    // The list's server modules read the database through getDb() (this one) and Temporal not at all (its statuses become a note).
    restoreDatabase = useBlockDatabase(provider, database, db);
    process.env.TEMPORAL_ADDRESS = `127.0.0.1:${await freePort()}`;
  });

  afterAll(async () => {
    if (!available) return;
    restoreDatabase();
    await db.$disconnect();
    await database.drop();
  });

  it.skipIf(!available)("a batch with plan_finished sets the outcome, a batch without one leaves it, a later turn's plan replaces it", async () => {
    await writeLedgerBatch(db, batch("turns", [iteration(1)], "thinking"));
    expect(await outcomeOf("turns"), "no plan finished yet").toBeNull();
    await writeLedgerBatch(db, batch("turns", [iteration(2), planFinished(3, "partially_failed", { completed: 1, failed: 1, skipped: 1 })]));
    expect(await outcomeOf("turns")).toBe("partially_failed");
    await writeLedgerBatch(db, batch("turns", [iteration(4)], "thinking"));
    expect(await outcomeOf("turns"), "a batch without plan_finished leaves the column alone").toBe("partially_failed");
    await writeLedgerBatch(db, batch("turns", [planFinished(5, "completed", { completed: 3, failed: 0, skipped: 0 })]));
    expect(await outcomeOf("turns"), "the follow-up turn's plan replaces the first one's").toBe("completed");

    await writeLedgerBatch(db, batch("two-in-one", [planFinished(1, "failed", { completed: 0, failed: 2, skipped: 1 }), iteration(2), planFinished(3, "partially_failed", { completed: 1, failed: 1, skipped: 1 })]));
    expect(await outcomeOf("two-in-one"), "the batch's last plan_finished wins").toBe("partially_failed");
  });

  it.skipIf(!available)("the group commit and its replay path set it too, the run's later batch last", async () => {
    const first = batch("grouped", [iteration(1), planFinished(2, "partially_failed", { completed: 1, failed: 1, skipped: 1 })]);
    await writeLedgerGroup(db, [first, batch("grouped", [planFinished(3, "failed", { completed: 0, failed: 3, skipped: 0 })])]);
    expect(await outcomeOf("grouped"), "two batches of one run in one group: the later one's").toBe("failed");
    // Replayed after a crash (seq 1–3 are there), then a new turn: the checked path writes the group.
    await writeLedgerGroup(db, [first, batch("grouped", [iteration(4), planFinished(5, "completed", { completed: 3, failed: 0, skipped: 0 })])]);
    expect(await db.runEvent.count({ where: { runId: "grouped" } }), "the replayed events are not written twice").toBe(5);
    expect(await outcomeOf("grouped")).toBe("completed");
  });

  it.skipIf(!available)("the runs list shows the outcome and filters by it; the route refuses an unknown outcome with a 422 naming planOutcome", async () => {
    await writeLedgerBatch(db, batch("list-partial", [planFinished(1, "partially_failed", { completed: 1, failed: 1, skipped: 1 })]));
    await writeLedgerBatch(db, batch("list-plain", [iteration(1)]));

    const partial = await listRunPage({ planOutcome: "partially_failed", page: 1, pageSize: 25 });
    expect(partial.rows.map((r) => [r.runId, r.planOutcome]).sort()).toEqual([
      ["list-partial", "partially_failed"],
      ["two-in-one", "partially_failed"],
    ]);
    expect((await listRunPage({ planOutcome: "completed", page: 1, pageSize: 25 })).rows.map((r) => r.runId).sort()).toEqual(["grouped", "turns"]);
    const all = await listRunPage({ page: 1, pageSize: 25 });
    expect(all.rows.find((r) => r.runId === "list-plain")?.planOutcome, "a run without a plan has no outcome").toBeNull();

    const routed = await listRoute(get("/api/runs/list?planOutcome=partially_failed"), noParams);
    expect(routed.status).toBe(200);
    expect(((await routed.json()) as RunListPage).rows.map((r) => r.runId).sort()).toEqual(["list-partial", "two-in-one"]);
    const refused = await listRoute(get("/api/runs/list?planOutcome=partial"), noParams);
    expect(refused.status).toBe(422);
    const body = (await refused.json()) as { error: { code: string; issues: { path: string; message: string }[] } };
    expect(body.error.code).toBe("validation_failed");
    expect(body.error.issues.map((i) => i.path)).toEqual(["planOutcome"]);
    expect(body.error.issues[0]?.message).toContain('"partially_failed"');
  });

  it.skipIf(!available)("the run header shows the outcome with the last plan's counts; the stored summary carries the outcome", async () => {
    const header = await runHeader("two-in-one");
    expect(header.planOutcome).toBe("partially_failed");
    expect(header.planCounts, "the counts of the plan the outcome came from").toEqual({ completed: 1, failed: 1, skipped: 1, cancelled: 0 });
    expect((await runHeader("turns")).planCounts).toEqual({ completed: 3, failed: 0, skipped: 0, cancelled: 0 });
    await writeLedgerBatch(db, batch("stopped", [planFinished(1, "cancelled", { completed: 1, failed: 0, skipped: 0, cancelled: 2 })], "cancelled"));
    expect(await runHeader("stopped")).toMatchObject({ planOutcome: "cancelled", planCounts: { completed: 1, failed: 0, skipped: 0, cancelled: 2 } });
    const plain = await runHeader("list-plain");
    expect([plain.planOutcome, plain.planCounts]).toEqual([null, null]);
    expect((await readRunSummary(db, "list-partial"))?.planOutcome).toBe("partially_failed");
    expect((await readRunSummary(db, "list-plain"))?.planOutcome).toBeNull();
  });
});
