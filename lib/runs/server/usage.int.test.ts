// A run's own usage is summed by the database from its model-call spans, per
// model, and priced per model — the same figures as adding the spans up one by
// one, on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../../scripts/test-support/databases";
import { readModelTokens } from "../../run-ledger/read";
import { ownUsage } from "./usage";
import { priceBookOf } from "../../pricing/price-book";

const providers = await testProviders();
const PRICES = priceBookOf({ "openai/gpt-4o": { input: 2.5, output: 10 } });

async function writeSpans(db: Db, runId: string, spans: { kind: string; name: string; data: object }[]): Promise<void> {
  await db.run.create({ data: { id: runId, rootRunId: runId, agentName: "usage", task: "usage", status: "completed", startedAt: new Date() } });
  await db.runSpan.createMany({ data: spans.map((s, i) => ({ runId, spanId: `s${i}`, parentId: null, kind: s.kind, name: s.name, status: "ok", startedAt: new Date(), data: JSON.stringify(s.data) })) });
}

for (const { provider, available, create } of providers) {
  describe.skipIf(!available)(`own usage on ${provider}`, () => {
    let database: TestDatabase;
    let db: Db;

    beforeAll(async () => {
      database = await create();
      await applyMigrations(database.url);
      db = createDb(database.url);
      await writeSpans(db, "priced", [
        { kind: "inference", name: "openai/gpt-4o", data: { tokens: { inputTokens: 1200, outputTokens: 30 }, attempts: 1 } },
        { kind: "inference", name: "openai/gpt-4o", data: { tokens: { inputTokens: 800, outputTokens: 70 }, attempts: 2 } },
        { kind: "inference", name: "demo/triage", data: { tokens: { inputTokens: 5, outputTokens: 6 } } },
        // A sub-agent span carries the child's tokens: counted on the child run, not here.
        { kind: "sub_agent", name: "billing", data: { tokens: { inputTokens: 999, outputTokens: 999 } } },
        // A model call that failed before it reported usage.
        { kind: "inference", name: "openai/gpt-4o", data: { attempts: 3 } },
        { kind: "tool", name: "lookup_order", data: { attributes: { callId: "c1" } } },
      ]);
      await writeSpans(db, "unpriced", [{ kind: "inference", name: "acme/unknown", data: { tokens: { inputTokens: 10, outputTokens: 1 } } }]);
      await writeSpans(db, "idle", [{ kind: "tool", name: "lookup_order", data: {} }]);
    });

    afterAll(async () => {
      await db?.$disconnect();
      await database?.drop();
    });

    it("sums tokens per run and model", async () => {
      const rows = await readModelTokens(db, ["priced", "unpriced", "idle"]);
      expect(rows.sort((a, b) => `${a.runId}${a.model}`.localeCompare(`${b.runId}${b.model}`))).toEqual([
        { runId: "priced", model: "demo/triage", inputTokens: 5, outputTokens: 6, period: 0 },
        { runId: "priced", model: "openai/gpt-4o", inputTokens: 2000, outputTokens: 100, period: 0 },
        { runId: "unpriced", model: "acme/unknown", inputTokens: 10, outputTokens: 1, period: 0 },
      ]);
      expect(await readModelTokens(db, [])).toEqual([]);
    });

    it("prices each run's usage; an unknown price makes the cost unknown, no model calls cost nothing", async () => {
      const usage = await ownUsage(db, ["priced", "unpriced", "idle", "absent"], PRICES);
      expect(usage.get("priced")?.tokens).toEqual({ inputTokens: 2005, outputTokens: 106 });
      expect(usage.get("priced")?.cost).toBeCloseTo((2000 * 2.5 + 100 * 10) / 1e6, 12);
      expect(usage.get("unpriced")).toEqual({ tokens: { inputTokens: 10, outputTokens: 1 }, cost: null });
      expect(usage.get("idle")).toEqual({ tokens: { inputTokens: 0, outputTokens: 0 }, cost: 0 });
      expect(usage.get("absent")).toEqual({ tokens: { inputTokens: 0, outputTokens: 0 }, cost: 0 });
    });
  });
}
