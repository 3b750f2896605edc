import { describe, expect, it } from "vitest";
import { runFiltersSchema } from "./schemas";
import { RUN_TRIGGERS } from "./triggers";
import { savedViewFiltersSchema, viewQuery } from "../views/schemas";

describe("runFiltersSchema routedTo", () => {
  it("takes an agent name, known or not (an unknown one matches no run)", () => {
    expect(runFiltersSchema.parse({ routedTo: "refund-specialist" }).routedTo).toBe("refund-specialist");
    expect(runFiltersSchema.parse({ routedTo: "nobody_here" }).routedTo).toBe("nobody_here");
    expect(runFiltersSchema.parse({}).routedTo).toBeUndefined();
  });
  it("refuses what cannot be an agent name, naming the field", () => {
    for (const bad of ["two words", "a/b", "x".repeat(65), "%27"]) {
      const parsed = runFiltersSchema.safeParse({ routedTo: bad });
      expect(parsed.success, bad).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(["routedTo"]);
    }
  });
});

describe("runFiltersSchema planOutcome", () => {
  it("takes each plan outcome", () => {
    for (const outcome of ["completed", "partially_failed", "failed", "cancelled"] as const) expect(runFiltersSchema.parse({ planOutcome: outcome }).planOutcome).toBe(outcome);
    expect(runFiltersSchema.parse({}).planOutcome).toBeUndefined();
  });
  it("refuses anything else, naming the parameter and the outcomes it takes", () => {
    for (const bad of ["partial", "partially failed", "PARTIALLY_FAILED", "completed,failed"]) {
      const parsed = runFiltersSchema.safeParse({ planOutcome: bad });
      expect(parsed.success, bad).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(["planOutcome"]);
      expect(parsed.error?.issues[0]?.message).toContain('"partially_failed"');
    }
  });
});

describe("runFiltersSchema trigger and webhook", () => {
  it("takes each trigger of the overview's split and a webhook endpoint id", () => {
    for (const trigger of RUN_TRIGGERS) expect(runFiltersSchema.parse({ trigger }).trigger).toBe(trigger);
    expect(runFiltersSchema.parse({ webhook: "whk_abcdefgh12" }).webhook).toBe("whk_abcdefgh12");
  });
  it("refuses an unknown trigger or a value that is no endpoint id, naming the parameter", () => {
    const cases: [Record<string, string>, string][] = [
      [{ trigger: "person" }, "trigger"],
      [{ trigger: "cron" }, "trigger"],
      [{ webhook: "sch_abcdefgh12" }, "webhook"],
      [{ webhook: "whk_short" }, "webhook"],
    ];
    for (const [query, field] of cases) {
      const parsed = runFiltersSchema.safeParse(query);
      expect(parsed.success, JSON.stringify(query)).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual([field]);
    }
  });
  it("a saved view keeps them: its query string reads back as the same filters", () => {
    const filters = savedViewFiltersSchema.parse({ trigger: "webhook", webhook: "whk_abcdefgh12", scheduleId: "sch_abcdefgh12" });
    const back = runFiltersSchema.parse(Object.fromEntries(new URLSearchParams(viewQuery(filters))));
    expect({ trigger: back.trigger, webhook: back.webhook, scheduleId: back.scheduleId }).toEqual({ trigger: "webhook", webhook: "whk_abcdefgh12", scheduleId: "sch_abcdefgh12" });
  });
});
