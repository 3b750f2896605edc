// The monitors' spend series (spend_limit_used): a gauge of the highest share of
// a spend limit spent, narrowed by graph only, read through the reader it is given.
import { describe, expect, it } from "vitest";
import { monitorCreateSchema, MONITOR_SERIES } from "../monitors/schemas";
import { monitorSeriesReader } from "../monitors/series";
import type { Db } from "../db/prisma";

const valid = { name: "Spend", series: "spend_limit_used", comparator: "gte", threshold: 0.8, windowMinutes: 5 } as const;
const paths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) => (result.error?.issues ?? []).map((issue) => issue.path.join("."));

describe("spend_limit_used", () => {
  it("is a ratio gauge: no stat, no label", () => {
    expect(MONITOR_SERIES.spend_limit_used).toMatchObject({ unit: "ratio", kind: "gauge" });
    expect(paths(monitorCreateSchema.safeParse({ ...valid, stat: "rate" }))).toEqual(["stat"]);
    expect(paths(monitorCreateSchema.safeParse({ ...valid, label: "x" }))).toEqual(["label"]);
  });

  it("is narrowed by graph only", () => {
    expect(monitorCreateSchema.safeParse({ ...valid, filters: { graph: "support" } }).success).toBe(true);
    expect(new Set(paths(monitorCreateSchema.safeParse({ ...valid, filters: { startedBy: "a@b.c", model: "m" } })))).toEqual(new Set(["filters.model", "filters.startedBy"]));
  });

  it("is read through the spend reader with the graph and the reader's clock; without one it measures nothing", async () => {
    const db = {} as Db;
    const now = new Date("2026-11-30T08:00:00Z");
    const calls: unknown[] = [];
    const reader = monitorSeriesReader(
      async () => 42,
      () => now,
      async (_db, graph, at) => (calls.push([graph, at]), 0.5),
    );
    expect(await reader(db, { series: "spend_limit_used", windowMinutes: 5, filters: { graph: "support" } })).toBe(0.5);
    expect(calls).toEqual([["support", now]]);
    expect(await monitorSeriesReader(async () => 42)(db, { series: "spend_limit_used", windowMinutes: 5, filters: {} })).toBeNull();
  });
});
