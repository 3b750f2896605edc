// The run ledger's group commit: batches of several runs share one transaction
// and one statement per table, and a group that meets rows already written (a
// batch replayed after a crash, or two batches of one run rewriting a span)
// still lands exactly once, in order.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/prisma";
import { applyMigrations } from "../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../scripts/test-support/databases";
import type { LedgerBatch } from "../contract/workflow";
import type { RunEvent, TraceSpan } from "../contract/types";
import { createLedgerWriter, writeLedgerGroup } from "./write";

const providers = await testProviders();
const AT = "2026-01-01T00:00:00.000Z";

function batch(runId: string, seqs: number[], options: { spans?: TraceSpan[]; status?: "thinking" | "completed"; messageIndexes?: number[] } = {}): LedgerBatch {
  const events = seqs.map((seq): RunEvent => ({ type: "iteration_started", iteration: seq, seq, at: AT }));
  return {
    run: { runId, rootRunId: runId, parentRunId: null, agentName: "main", task: "t", context: {}, startedBy: null, graphName: null, agentVersionId: null },
    summary: {
      status: options.status ?? "thinking",
      iteration: seqs.length,
      usage: { inputTokens: 0, outputTokens: 0 },
      pendingApprovals: 0,
      lastEventSeq: seqs.at(-1) ?? 0,
      messageCount: options.messageIndexes?.length ?? 0,
      generation: 0,
      output: null,
      error: null,
      startedAt: AT,
      endedAt: null,
    },
    events,
    spans: options.spans ?? [],
    messages: (options.messageIndexes ?? []).map((index) => ({ index, message: { role: "user", content: `m${index}` } })),
    approvals: [],
  };
}

const span = (id: string, status: "running" | "ok"): TraceSpan => ({ id, parentId: null, kind: "iteration", name: id, startedAt: AT, endedAt: status === "ok" ? AT : null, status });

describe.each(providers)("ledger group commit on $provider", ({ available, create }) => {
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

  it.skipIf(!available)("writes several runs in one group, each row once", async () => {
    await writeLedgerGroup(db, [
      batch("r1", [1, 2], { spans: [span("s1", "running")], messageIndexes: [0] }),
      batch("r2", [1], { spans: [span("s1", "running")] }),
      batch("r3", [1, 2, 3], { messageIndexes: [0, 1] }),
    ]);
    expect(await db.runEvent.count({ where: { runId: { in: ["r1", "r2", "r3"] } } }), "events of the three runs").toBe(6);
    expect(await db.runMessage.count({ where: { runId: { in: ["r1", "r3"] } } }), "messages").toBe(3);
    expect((await db.runSpan.findMany({ where: { spanId: "s1" }, orderBy: { runId: "asc" } })).map((s) => s.runId), "one span row per run").toEqual(["r1", "r2"]);
  });

  it.skipIf(!available)("a group with a replayed batch and a run's span sent twice lands once, newest state last", async () => {
    await writeLedgerGroup(db, [batch("r4", [1], { spans: [span("s1", "running")] })]);
    await writeLedgerGroup(db, [
      // Replayed after a crash: seq 1 is already there.
      batch("r4", [1, 2], { spans: [span("s1", "running")] }),
      batch("r5", [1]),
      // The same run again in the same group: the span ends, the run completes.
      batch("r4", [3], { spans: [span("s1", "ok")], status: "completed" }),
    ]);
    expect((await db.runEvent.findMany({ where: { runId: "r4" }, orderBy: { seq: "asc" } })).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect((await db.runSpan.findUniqueOrThrow({ where: { runId_spanId: { runId: "r4", spanId: "s1" } } })).status, "the later batch's span wins").toBe("ok");
    expect((await db.run.findUniqueOrThrow({ where: { id: "r4" } })).status, "the later batch's summary wins").toBe("completed");
    expect(await db.runEvent.count({ where: { runId: "r5" } })).toBe(1);
  });

  it.skipIf(!available)("the writer groups batches that arrive together", async () => {
    const writer = createLedgerWriter(db);
    const ids = Array.from({ length: 20 }, (_, i) => `w${i}`);
    await Promise.all(ids.map((id) => writer.write(batch(id, [1, 2]))));
    expect(await db.runEvent.count({ where: { runId: { in: ids } } })).toBe(40);
  });
});
