import { describe, expect, it } from "vitest";
import { alertRunsHref, breaches, describeCondition, episodeStep, formatSeriesValue } from "./episode";
import { monitorCreateSchema, monitorPatchSchema, monitorPreviewQuerySchema, type AlertCondition } from "./schemas";

describe("breaches", () => {
  it("compares strictly or not as the comparator says", () => {
    expect(breaches(0.1, "gt", 0.1), "10 % is not above 10 %").toBe(false);
    expect(breaches(0.1, "gte", 0.1)).toBe(true);
    expect(breaches(0.11, "gt", 0.1)).toBe(true);
    expect(breaches(0.8, "lt", 0.9), "a success rate under its floor").toBe(true);
    expect(breaches(0.9, "lt", 0.9)).toBe(false);
    expect(breaches(0.9, "lte", 0.9)).toBe(true);
  });

  it("a series with nothing to measure breaches nothing, whichever way the comparator points", () => {
    for (const comparator of ["gt", "gte", "lt", "lte"] as const) expect(breaches(null, comparator, 0), comparator).toBe(false);
    expect(breaches(Number.NaN, "lt", 1)).toBe(false);
  });
});

describe("episodeStep: an alert fires once per episode and resolves when the series recovers", () => {
  it.each([
    [false, true, "fire"],
    [true, true, "stay"],
    [true, false, "resolve"],
    [false, false, "quiet"],
  ] as const)("open=%s breaching=%s → %s", (open, breaching, step) => {
    expect(episodeStep(open, breaching)).toBe(step);
  });

  it("a run of readings makes one fire and one resolve", () => {
    const readings = [0.05, 0.2, 0.3, 0.25, 0.04, 0.02, 0.5];
    let open = false;
    const steps = readings.map((value) => {
      const step = episodeStep(open, breaches(value, "gt", 0.1));
      if (step === "fire") open = true;
      if (step === "resolve") open = false;
      return step;
    });
    expect(steps).toEqual(["quiet", "fire", "stay", "stay", "resolve", "quiet", "fire"]);
  });
});

describe("formatting", () => {
  it("shows each unit for people", () => {
    expect(formatSeriesValue("success_rate", 0.125)).toBe("12.5 %");
    expect(formatSeriesValue("run_latency", 850)).toBe("850 ms");
    expect(formatSeriesValue("run_latency", 1_500)).toBe("1.5 s");
    expect(formatSeriesValue("approvals_oldest_wait", 45 * 60_000)).toBe("45 min");
    expect(formatSeriesValue("cost", 0.031234), "money as every page writes it (lib/format/figures.ts)").toBe("$0.03");
    expect(formatSeriesValue("cost", 0.0042)).toBe("$0.0042");
    expect(formatSeriesValue("cost", 0)).toBe("$0");
    expect(formatSeriesValue("runs_failed", 6)).toBe("6");
    expect(formatSeriesValue("runs_failed", null)).toBe("no data");
  });

  it("describes a condition in one line", () => {
    const line = describeCondition({ series: "runs_failed", stat: null, label: "tool_error", comparator: "gt", threshold: 5, windowMinutes: 15 }, "Runs failed");
    expect(line).toBe("Runs failed [tool_error] > 5 over 15 min");
  });
});

describe("alertRunsHref: the runs behind an alert", () => {
  const condition = (over: Partial<AlertCondition>): AlertCondition => ({ series: "runs_failed", stat: null, label: null, comparator: "gt", threshold: 1, windowMinutes: 15, filters: {}, ...over });
  const firedAt = new Date("2026-11-26T10:15:00.000Z");
  const params = (href: string) => Object.fromEntries(new URL(href, "http://x").searchParams);

  it("failed runs of the monitor's graph from the window before it fired until it resolved", () => {
    const href = alertRunsHref(condition({ filters: { graph: "support-triage", version: 3 } }), firedAt, new Date("2026-11-26T11:00:00.000Z"));
    expect(href.startsWith("/runs?")).toBe(true);
    expect(params(href)).toEqual({ graph: "support-triage", version: "3", status: "failed", from: "2026-11-26T10:00:00.000Z", to: "2026-11-26T11:00:00.000Z", experiments: "1" });
  });

  it("the runs started in a state: that status of the runs list, still running as any working state", () => {
    expect(params(alertRunsHref(condition({ series: "runs_by_state", label: "cancelled" }), firedAt, null))).toMatchObject({ status: "cancelled" });
    expect(params(alertRunsHref(condition({ series: "runs_by_state", label: "running" }), firedAt, null))).toMatchObject({ status: "active" });
    expect(params(alertRunsHref(condition({ series: "started_running" }), firedAt, null))).toMatchObject({ status: "active" });
    expect(params(alertRunsHref(condition({ series: "runs_by_state" }), firedAt, null))).not.toHaveProperty("status");
  });

  it("a failure reason as the label narrows to it; a routing target to routedTo", () => {
    expect(params(alertRunsHref(condition({ label: "tool_error" }), firedAt, null))).toMatchObject({ reason: "tool_error" });
    expect(params(alertRunsHref(condition({ series: "routing_decisions", label: "billing" }), firedAt, null))).toMatchObject({ routedTo: "billing" });
    expect(params(alertRunsHref(condition({ series: "validation_errors" }), firedAt, null))).toMatchObject({ reason: "validation_error" });
  });

  it("waiting approvals link to the runs awaiting one", () => {
    expect(params(alertRunsHref(condition({ series: "approvals_oldest_wait" }), firedAt, null))).toEqual({ awaitingApproval: "1" });
  });
});

describe("monitor schemas", () => {
  const valid = { name: "Failures", series: "runs_failed", comparator: "gt", threshold: 5, windowMinutes: 15 };
  const paths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) => result.error?.issues.map((i) => i.path.join(".")) ?? [];

  it("accepts a plain monitor and defaults filters and enabled", () => {
    expect(monitorCreateSchema.parse(valid)).toMatchObject({ filters: {}, enabled: true });
  });

  it("names the field that is wrong", () => {
    expect(paths(monitorCreateSchema.safeParse({ ...valid, series: "nope" }))).toEqual(["series"]);
    expect(paths(monitorCreateSchema.safeParse({ ...valid, windowMinutes: 0 }))).toEqual(["windowMinutes"]);
    expect(paths(monitorCreateSchema.safeParse({ ...valid, threshold: "5" }))).toEqual(["threshold"]);
    expect(paths(monitorCreateSchema.safeParse({ ...valid, extra: 1 }))).toEqual([""]);
    expect(paths(monitorCreateSchema.safeParse({ ...valid, filters: { graph: "x", colour: "red" } }))).toEqual(["filters"]);
  });

  it("refuses a stat that does not fit the series, a label on a series without labels, and graph filters on the approvals' wait", () => {
    expect(paths(monitorCreateSchema.safeParse({ ...valid, stat: "p95" }))).toEqual(["stat"]);
    expect(monitorCreateSchema.safeParse({ ...valid, series: "run_latency", stat: "p95" }).success).toBe(true);
    expect(paths(monitorCreateSchema.safeParse({ ...valid, series: "success_rate", label: "x" }))).toEqual(["label"]);
    expect(paths(monitorCreateSchema.safeParse({ ...valid, series: "approvals_oldest_wait", filters: { graph: "g" } }))).toEqual(["filters.graph"]);
  });

  it("a patch must change something; the preview reads its numbers from the query string", () => {
    expect(monitorPatchSchema.safeParse({}).success).toBe(false);
    expect(monitorPreviewQuerySchema.parse({ series: "cost", windowMinutes: "60", graph: "g" })).toMatchObject({ series: "cost", windowMinutes: 60, filters: { graph: "g" } });
    expect(paths(monitorPreviewQuerySchema.safeParse({ series: "cost", windowMinutes: "soon" }))).toEqual(["windowMinutes"]);
  });
});
