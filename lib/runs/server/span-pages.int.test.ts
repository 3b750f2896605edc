// The trace view reads a run's spans a page at a time, as rows the database
// writes as JSON: in start order, with the total so later pages can be asked
// for at once, nothing lost or repeated between pages, and every field equal
// to what the same span reads as through Prisma — on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../../scripts/test-support/databases";
import { readSpanRowsJson, readSpans } from "../../run-ledger/read";
import { spansFromRows, toSpanView, type SpanRow, type SpanRowPage } from "../span-rows";
import { EMPTY_PRICE_BOOK, priceBookOf } from "../../pricing/price-book";

const providers = await testProviders();
const START = Date.parse("2026-01-01T00:00:00Z");

/** 120 spans: ids out of start order, two spans per start time, awkward text in names and attributes. */
async function writeRun(db: Db, runId: string): Promise<void> {
  await db.run.create({ data: { id: runId, rootRunId: runId, agentName: "pager", task: "page", status: "completed", startedAt: new Date(START) } });
  const spans = Array.from({ length: 120 }, (_, i) => ({
    runId,
    spanId: `s${(i * 37) % 120}`,
    parentId: i === 0 ? null : "s0",
    kind: i % 3 === 0 ? "inference" : "tool",
    name: i % 3 === 0 ? "openai/gpt-4o" : `t${i} "quoted" ], [ <script>`,
    status: i === 119 ? "running" : "ok",
    startedAt: new Date(START + Math.floor(i / 2) * 10),
    endedAt: i === 119 ? null : new Date(START + i * 10 + 5),
    data: JSON.stringify(i % 3 === 0 ? { tokens: { inputTokens: 1000 * i, outputTokens: 10 }, attempts: 1 } : { attempts: 2, attributes: { callId: `c${i}`, note: "a\nb \u2713 \\ \"", ok: true, n: i } }),
  }));
  await db.runSpan.createMany({ data: spans });
}

for (const { provider, available, create } of providers) {
  describe.skipIf(!available)(`span pages on ${provider}`, () => {
    let database: TestDatabase;
    let db: Db;

    beforeAll(async () => {
      database = await create();
      await applyMigrations(database.url);
      db = createDb(database.url);
      await writeRun(db, "paging-run");
      await writeRun(db, "other-run");
    });

    afterAll(async () => {
      await db?.$disconnect();
      await database?.drop();
    });

    it("pages a run's spans in start order, each equal to the span read through Prisma", async () => {
      const pages = await Promise.all([0, 50, 100].map((offset) => readSpanRowsJson(db, "paging-run", offset, 50)));
      expect(pages.map((p) => p.count)).toEqual([50, 50, 20]);
      expect(pages.map((p) => p.total), "the other run's spans are not counted").toEqual([120, 120, 120]);
      const rows = pages.flatMap((p) => JSON.parse(p.json) as SpanRow[]);
      expect(new Set(rows.map((r) => r[0])).size, "no span lost or repeated").toBe(120);

      const spans = spansFromRows({ runId: "paging-run", rows, nextOffset: null, total: 120, prices: EMPTY_PRICE_BOOK });
      const viaPrisma = await readSpans(db, "paging-run");
      const byId = new Map(viaPrisma.map((s) => [s.id, s]));
      for (const span of spans) {
        const prismaSpan = byId.get(span.id);
        expect(span, `span ${span.id}`).toEqual(prismaSpan && toSpanView("paging-run", prismaSpan, EMPTY_PRICE_BOOK));
        expect([span.startMs, span.endMs], "times in ms").toEqual([Date.parse(prismaSpan?.startedAt ?? ""), prismaSpan?.endedAt ? Date.parse(prismaSpan.endedAt) : null]);
        if (span.kind === "inference") expect(span.cost, "no price configured: unknown").toBeNull();
      }
      expect(spans.some((s) => s.endMs === null), "an open span reads as open").toBe(true);
      const order = spans.map((s) => `${s.startMs}|${s.id}`);
      expect(order, "start order, then span id").toEqual([...order].sort());
    });

    it("prices model calls from the page's table and pages past the end to nothing", async () => {
      const page = await readSpanRowsJson(db, "paging-run", 0, 3);
      const body: SpanRowPage = { runId: "paging-run", rows: JSON.parse(page.json) as SpanRow[], nextOffset: 3, total: page.total, prices: priceBookOf({ "openai/gpt-4o": { input: 2.5, output: 10 } }) };
      const inference = spansFromRows(body).find((s) => s.kind === "inference");
      const tokens = inference?.tokens ?? { inputTokens: Number.NaN, outputTokens: 0 };
      expect(inference?.cost).toBeCloseTo((tokens.inputTokens * 2.5 + tokens.outputTokens * 10) / 1e6, 12);

      expect(await readSpanRowsJson(db, "paging-run", 500, 50)).toEqual({ json: "[]", count: 0, total: 120 });
      expect(await readSpanRowsJson(db, "no-such-run", 0, 50)).toEqual({ json: "[]", count: 0, total: 0 });
    });
  });
}

describe("GET /api/runs/:runId/spans body", () => {
  it("is one JSON document whose pages chain to the end", async () => {
    const database = await providers[0]?.create();
    if (!database) throw new Error("no SQLite");
    try {
      await applyMigrations(database.url);
      const db = createDb(database.url);
      await writeRun(db, "route-run");
      await db.$disconnect();
      // The page's server modules read their configuration from the environment, once.
      process.env.DATABASE_URL = database.url;
      process.env.ZAP_MODEL_PRICES = "openai/gpt-4o=2.5/10";
      const { runSpanPageJson } = await import("./runs");
      const seen: string[] = [];
      let offset: number | null = 0;
      const nextOffsets: (number | null)[] = [];
      while (offset !== null) {
        const page = JSON.parse(await runSpanPageJson("route-run", offset, 50)) as SpanRowPage;
        expect(page.total).toBe(120);
        expect(page.prices.models["openai/gpt-4o"], "the price book, ZAP_MODEL_PRICES over the defaults").toEqual([{ from: 0, input: 2.5, output: 10, cachedRead: null, cachedWrite: null, reasoning: null, source: "env" }]);
        seen.push(...spansFromRows(page).map((s) => s.id));
        offset = page.nextOffset;
        nextOffsets.push(offset);
      }
      expect(nextOffsets).toEqual([50, 100, null]);
      expect(new Set(seen).size).toBe(120);
      await expect(runSpanPageJson("no-such-run", 0, 50)).rejects.toThrow(/There is no run "no-such-run"/);
    } finally {
      await database.drop();
    }
  });
});
