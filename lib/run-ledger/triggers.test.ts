// What started a run, from its row's links, and the split's query (the overview's "How runs started").
import { describe, expect, it } from "vitest";
import { countByTrigger, RUN_TRIGGERS, runTriggerOf, runTriggerQuerySchema, runTriggerWhere, type RunTriggerLinks, type RunTriggerWhere } from "./triggers";

const none = { scheduleId: null, webhookId: null, experimentId: null };

describe("run triggers", () => {
  it("a run without a link was started by a person; a schedule's, a webhook's or an experiment's link names its trigger", () => {
    expect(runTriggerOf(none)).toBe("manual");
    expect(runTriggerOf({ ...none, scheduleId: "sch_1" })).toBe("schedule");
    expect(runTriggerOf({ ...none, webhookId: "whk_1" })).toBe("webhook");
    expect(runTriggerOf({ ...none, experimentId: "exp_1" })).toBe("experiment");
    expect(runTriggerOf({ scheduleId: "sch_1", webhookId: "whk_1", experimentId: "exp_1" }), "a schedule's link wins").toBe("schedule");
  });

  it("adds up groups by trigger, every trigger present", () => {
    expect(countByTrigger([])).toEqual({ manual: 0, schedule: 0, webhook: 0, experiment: 0 });
    expect(
      countByTrigger([
        { ...none, count: 4 },
        { ...none, scheduleId: "sch_1", count: 2 },
        { ...none, scheduleId: "sch_2", count: 3 },
        { ...none, webhookId: "whk_1", count: 1 },
        { ...none, experimentId: "exp_1", count: 5 },
      ]),
    ).toEqual({ manual: 4, schedule: 5, webhook: 1, experiment: 5 });
  });

  it("the query takes a range of at most a year and the run filters, nothing else", () => {
    expect(runTriggerQuerySchema.safeParse({ from: "2026-03-01T00:00:00Z", to: "2026-03-02T00:00:00Z", graph: "triage", version: "2" }).success).toBe(true);
    const backwards = runTriggerQuerySchema.safeParse({ from: "2026-03-02T00:00:00Z", to: "2026-03-01T00:00:00Z" });
    expect(backwards.error?.issues.map((issue) => issue.path.join("."))).toEqual(["to"]);
    const tooLong = runTriggerQuerySchema.safeParse({ from: "2024-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z" });
    expect(tooLong.error?.issues.map((issue) => issue.path.join("."))).toEqual(["from"]);
    const unknown = runTriggerQuerySchema.safeParse({ from: "2026-03-01T00:00:00Z", to: "2026-03-02T00:00:00Z", model: "demo" });
    expect(unknown.success, "model is not a run filter").toBe(false);
  });
});

/** Whether a row's links meet a trigger's condition, as the database reads it (null: empty; { not: null }: set). */
function meets(run: RunTriggerLinks, where: RunTriggerWhere): boolean {
  return (Object.keys(where) as (keyof RunTriggerLinks)[]).every((link) => (where[link] === null ? run[link] === null : run[link] !== null));
}

describe("runTriggerWhere", () => {
  // Every combination of the three links, the ones no writer makes today (a schedule's run in an experiment) too.
  const combinations: RunTriggerLinks[] = [];
  for (const scheduleId of [null, "sch_1"]) for (const webhookId of [null, "whk_1"]) for (const experimentId of [null, "exp_1"]) combinations.push({ scheduleId, webhookId, experimentId });

  it("selects a row under exactly the trigger runTriggerOf names for it", () => {
    for (const run of combinations) {
      const selectedBy = RUN_TRIGGERS.filter((trigger) => meets(run, runTriggerWhere(trigger)));
      expect(selectedBy, JSON.stringify(run)).toEqual([runTriggerOf(run)]);
    }
  });

  it("a person's runs have no link; a webhook's, no schedule", () => {
    expect(runTriggerWhere("manual")).toEqual({ scheduleId: null, webhookId: null, experimentId: null });
    expect(runTriggerWhere("webhook")).toEqual({ scheduleId: null, webhookId: { not: null } });
  });
});
