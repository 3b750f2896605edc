// The deriver (issue 35 §4) on SQLite and PostgreSQL: the search index, facets and
// metric rollups are derived after the ledger's transaction, from its queue, and
// - a process killed between the ledger write and the derive loses nothing: its
//   queued rows are derived by the next deriver, once;
// - a process killed in the middle of a derive (its rows claimed inside the open
//   transaction) loses nothing and doubles nothing: the claim rolls back with it;
// - derivers racing on two clients derive every row exactly once;
// - the lag says how many writes wait and for how long; the worker's writer wakes its deriver.
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/prisma";
import { applyMigrations } from "../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../scripts/test-support/databases";
import type { LedgerBatch } from "../contract/workflow";
import type { RunEvent } from "../contract/types";
import { createLedgerWriter, writeLedgerGroup } from "./write";
import { createDeriver, deriveLag, deriveQueued } from "./deriver";

const CHILD = path.join(import.meta.dirname, "../../scripts/test-support/deriver-child.ts");
const providers = await testProviders();
const AT = new Date(Date.now() - 10 * 60_000).toISOString();

/** A finished root run of `graph`: started, one model call, one tool call whose arguments hold `word`, completed. */
function finishedRun(runId: string, graph: string, word: string): LedgerBatch {
  const events: RunEvent[] = [
    { type: "run_started", agentName: "main", task: `look up ${word}`, depth: 0, seq: 1, at: AT },
    { type: "inference_started", iteration: 1, model: "demo/assistant", seq: 2, at: AT },
    { type: "inference_completed", iteration: 1, model: "demo/assistant", usage: { inputTokens: 10, outputTokens: 5 }, latencyMs: 20, toolCalls: 1, attempts: 1, seq: 3, at: AT },
    { type: "tool_call_started", iteration: 1, callId: "c1", tool: "lookup", arguments: `{"q":"${word}"}`, seq: 4, at: AT },
    { type: "tool_call_completed", iteration: 1, callId: "c1", tool: "lookup", outcome: "ok", durationMs: 3, attempts: 1, result: "found", seq: 5, at: AT },
    { type: "run_completed", output: "done", seq: 6, at: AT },
  ] as RunEvent[];
  return {
    run: { runId, rootRunId: runId, parentRunId: null, agentName: "main", task: `look up ${word}`, context: {}, startedBy: "ann@zap.local", graphName: graph, agentVersionId: null },
    summary: { status: "completed", iteration: 1, usage: { inputTokens: 10, outputTokens: 5 }, pendingApprovals: 0, lastEventSeq: 6, messageCount: 0, generation: 0, output: "done", error: null, startedAt: AT, endedAt: AT },
    events,
    spans: [],
    messages: [],
    approvals: [],
  };
}

/** Starts the child in `mode` and resolves once it printed `line` (a prefix), with the line and the child to kill. */
async function childAt(url: string, mode: "write" | "derive", line: string, batches: LedgerBatch[] = []) {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, url, mode, JSON.stringify(batches)], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const said = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on("line", (text) => text.startsWith(line) && resolve(text));
    child.on("exit", (code) => reject(new Error(`deriver child (${mode}) exited with ${code} before "${line}":\n${stderr}`)));
  });
  const killed = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return {
    said,
    kill: async () => {
      child.kill("SIGKILL");
      await killed;
    },
  };
}

/** What is derived for `graph`: its search documents, tool facets and started runs (the day's rollup). */
async function derivedOf(db: Db, graph: string, runIds: string[]) {
  const [documents, facets, started] = await Promise.all([
    db.searchDocument.count({ where: { runId: { in: runIds } } }),
    db.runFacet.count({ where: { rootRunId: { in: runIds }, kind: "tool" } }),
    db.metricRollup.findMany({ where: { series: "runs_started", graph, scope: 1, resolution: 1440 }, select: { count: true } }),
  ]);
  return { documents, facets, runsStarted: started.reduce((sum, row) => sum + row.count, 0) };
}

describe.each(providers)("the deriver on $provider", ({ provider, available, create }) => {
  let database: TestDatabase;
  let db: Db;
  let second: Db;
  beforeAll(async () => {
    if (!available) return;
    database = await create();
    await applyMigrations(database.url);
    db = createDb(database.url);
    second = createDb(database.url);
  });
  afterAll(async () => {
    if (!available) return;
    await Promise.all([db.$disconnect(), second.$disconnect()]);
    await database.drop();
  });

  it.skipIf(!available)("a worker killed after its ledger write, before deriving, loses nothing: the next deriver derives it, once", { timeout: 60_000 }, async () => {
    const graph = `killed-after-write-${provider}`;
    const runs = ["kaw-1", "kaw-2", "kaw-3"].map((id) => finishedRun(id, graph, `walrus${id.slice(-1)}`));
    const child = await childAt(database.url, "write", "written", runs);
    await child.kill();
    const ids = runs.map((r) => r.run.runId);
    expect(await db.runEvent.count({ where: { runId: { in: ids } } }), "the ledger holds the dead worker's writes").toBe(18);
    expect(await derivedOf(db, graph, ids), "nothing derived yet").toEqual({ documents: 0, facets: 0, runsStarted: 0 });
    const lag = await deriveLag(db);
    expect(lag.queued, "the writes wait in the queue").toBeGreaterThan(0);
    expect(lag.lagMs).toBeGreaterThanOrEqual(0);

    expect(await deriveQueued(db)).toBeGreaterThan(0);
    // Per run: the task, the tool's arguments and its result; one tool facet; one start.
    expect(await derivedOf(db, graph, ids)).toEqual({ documents: 9, facets: 3, runsStarted: 3 });
    expect(await deriveQueued(db), "nothing left").toBe(0);
    expect(await derivedOf(db, graph, ids), "derived once").toEqual({ documents: 9, facets: 3, runsStarted: 3 });
    expect(await deriveLag(db)).toEqual({ queued: 0, lagMs: 0 });
  });

  it.skipIf(!available)("a deriver killed in the middle of a pass (rows claimed, transaction open) loses nothing and doubles nothing", { timeout: 60_000 }, async () => {
    const graph = `killed-mid-derive-${provider}`;
    const runs = Array.from({ length: 4 }, (_, i) => finishedRun(`kmd-${i}`, graph, `narwhal${i}`));
    // Two transactions, so the pass claims more than one queued row.
    await writeLedgerGroup(db, runs.slice(0, 2));
    await writeLedgerGroup(db, runs.slice(2));
    const queued = await db.deriveQueueItem.count();
    const child = await childAt(database.url, "derive", "claimed");
    expect(child.said, "the killed pass held every queued row").toBe(`claimed ${queued}`);
    await child.kill();
    const ids = runs.map((r) => r.run.runId);
    expect(await db.deriveQueueItem.count(), "its claim died with it").toBe(queued);
    expect(await derivedOf(db, graph, ids)).toEqual({ documents: 0, facets: 0, runsStarted: 0 });

    await deriveQueued(db);
    expect(await derivedOf(db, graph, ids)).toEqual({ documents: 12, facets: 4, runsStarted: 4 });
  });

  it.skipIf(!available)("derivers racing on two clients derive every queued write exactly once", { timeout: 60_000 }, async () => {
    const graph = `raced-${provider}`;
    const runs = Array.from({ length: 24 }, (_, i) => finishedRun(`race-${i}`, graph, `okapi${i}`));
    // One transaction per run: 24 queued rows for the derivers to fight over, a row or two per pass.
    for (const run of runs) await writeLedgerGroup(db, [run]);
    await Promise.all([deriveQueued(db, { rowsPerPass: 1 }), deriveQueued(second, { rowsPerPass: 2 }), deriveQueued(db, { rowsPerPass: 3 }), deriveQueued(second, { rowsPerPass: 1 })]);
    expect(await db.deriveQueueItem.count()).toBe(0);
    expect(await derivedOf(db, graph, runs.map((r) => r.run.runId))).toEqual({ documents: 72, facets: 24, runsStarted: 24 });
  });

  it.skipIf(!available)("the worker's ledger writer wakes its deriver: written runs are searchable a moment later, with no call to derive", { timeout: 30_000 }, async () => {
    const graph = `woken-${provider}`;
    const deriver = createDeriver(db, { delayMs: 5 });
    const writer = createLedgerWriter(db, { onWritten: deriver.kick });
    const runs = [finishedRun("woken-1", graph, "axolotl1"), finishedRun("woken-2", graph, "axolotl2")];
    await Promise.all(runs.map((run) => writer.write(run)));
    await expect.poll(() => derivedOf(db, graph, ["woken-1", "woken-2"]), { timeout: 10_000 }).toEqual({ documents: 6, facets: 2, runsStarted: 2 });
    await deriver.close();
  });
});
