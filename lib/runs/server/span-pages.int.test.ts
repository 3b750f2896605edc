// The trace view reads a run's spans a page at a time: in start order, with
// the total on the first page of a longer trace so later pages can be asked
// for at once, and nothing lost or repeated between pages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { freshSqlite, type TestDatabase } from "../../../scripts/test-support/databases";

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await freshSqlite();
  await applyMigrations(database.url);
  db = createDb(database.url);
  // The page's server modules read their configuration from the environment, once.
  process.env.DATABASE_URL = database.url;
});

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe("runSpanPage", () => {
  it("pages a run's spans in start order, with the total on the first page", async () => {
    const { runSpanPage } = await import("./runs");
    const runId = "paging-run";
    const start = Date.parse("2026-01-01T00:00:00Z");
    await db.run.create({ data: { id: runId, rootRunId: runId, agentName: "pager", task: "page", status: "completed", startedAt: new Date(start) } });
    // Span ids deliberately out of start order, and two spans sharing a start time.
    const spans = Array.from({ length: 120 }, (_, i) => ({ runId, spanId: `s${(i * 37) % 120}`, parentId: null, kind: "tool", name: `t${i}`, status: "ok", startedAt: new Date(start + Math.floor(i / 2) * 10), endedAt: new Date(start + i * 10 + 5), data: JSON.stringify({ attempts: 1 }) }));
    await db.runSpan.createMany({ data: spans });

    const first = await runSpanPage(runId, 0, 50);
    expect(first.total, "the first page of a longer trace says how many spans there are").toBe(120);
    expect(first.nextOffset).toBe(50);
    const rest = await Promise.all([runSpanPage(runId, 50, 50), runSpanPage(runId, 100, 50)]);
    expect(rest.map((p) => p.nextOffset)).toEqual([100, null]);
    expect(rest.map((p) => p.total), "only the first page counts").toEqual([undefined, undefined]);

    const all = [first, ...rest].flatMap((p) => p.spans);
    expect(new Set(all.map((s) => s.id)).size, "no span lost or repeated").toBe(120);
    const order = all.map((s) => `${s.startedAt}|${s.id}`);
    expect(order, "start order, then span id").toEqual([...order].sort());
    expect(all[0]).toMatchObject({ runId, kind: "tool", status: "ok", attempts: 1 });

    const short = await runSpanPage(runId, 0, 500);
    expect(short, "a trace that fits one page needs no count").toMatchObject({ nextOffset: null });
    expect(short.total).toBeUndefined();
  });
});
