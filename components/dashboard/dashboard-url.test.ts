import { describe, expect, it } from "vitest";
import { drillDownHref, nextDashboardSearch, readDashboardUrl } from "./dashboard-url";

const from = new Date("2026-11-26T10:00:00.000Z");
const to = new Date("2026-11-26T10:00:59.999Z");
const query = (href: string | null) => Object.fromEntries(new URL(href ?? "http://x/none", "http://x").searchParams);

describe("readDashboardUrl", () => {
  it("reads a shared view with the metrics schema, defaults filled in", () => {
    const state = readDashboardUrl(new URLSearchParams("range=7d&graph=help-desk&version=2&breakdown=model"));
    expect(state.ok && state.query).toMatchObject({ range: "7d", graph: "help-desk", version: 2, breakdown: "model" });
    expect(state.ok && state.search).toBe("range=7d&graph=help-desk&version=2&breakdown=model");
    const bare = readDashboardUrl(new URLSearchParams(""));
    expect(bare.ok && bare.query).toMatchObject({ range: "24h", breakdown: "none" });
  });

  it("names each bad value's field instead of failing", () => {
    const state = readDashboardUrl(new URLSearchParams("range=2w&version=zero&grpah=x"));
    expect(state.ok).toBe(false);
    const fields = state.ok ? [] : state.issues.map((i) => i.field);
    expect(fields).toEqual(expect.arrayContaining(["range", "version", "grpah"]));
  });

  it("refuses a custom range without its end, one whose end is before its start, and a series list", () => {
    const missing = readDashboardUrl(new URLSearchParams("range=custom&from=2026-11-01T00:00:00Z"));
    expect(missing.ok ? [] : missing.issues).toContainEqual({ field: "to", message: "required with range=custom" });
    const backwards = readDashboardUrl(new URLSearchParams("range=custom&from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z"));
    expect(backwards.ok ? [] : backwards.issues).toContainEqual({ field: "to", message: "must be after from" });
    const series = readDashboardUrl(new URLSearchParams("series=cost"));
    expect(series.ok ? [] : series.issues.map((i) => i.field)).toEqual(["series"]);
  });

  it("drops empty values rather than refusing them", () => {
    const state = readDashboardUrl(new URLSearchParams("graph=&range=1h"));
    expect(state.ok && state.search).toBe("range=1h");
  });
});

describe("nextDashboardSearch", () => {
  it("sets and clears keys, and leaves from/to only with a custom range", () => {
    const params = new URLSearchParams("range=custom&from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&graph=a");
    expect(nextDashboardSearch(params, { graph: "" })).toBe("range=custom&from=2026-11-01T00%3A00%3A00Z&to=2026-11-02T00%3A00%3A00Z");
    expect(nextDashboardSearch(params, { range: "7d" })).toBe("range=7d&graph=a");
  });
});

describe("drillDownHref", () => {
  it("sends a failed bar split by reason to the failed runs of that reason, started in the bucket", () => {
    const href = drillDownHref({ series: "runs_failed", lineKey: "model_error", breakdown: "label", filters: { graph: "research-loop" }, from, to });
    expect(href?.startsWith("/runs?")).toBe(true);
    expect(query(href)).toEqual({ graph: "research-loop", status: "failed", reason: "model_error", experiments: "1", from: from.toISOString(), to: to.toISOString() });
    const started = drillDownHref({ series: "started_failed", lineKey: "model_error", breakdown: "label", filters: { graph: "research-loop" }, from, to });
    expect(query(started), "the failed runs by start, the same list").toEqual(query(href));
  });

  it("sends each state of the runs started to the runs list's same status, experiment runs included as the overview counts them", () => {
    const state = (lineKey: string) => query(drillDownHref({ series: "runs_by_state", lineKey, breakdown: "none", filters: {}, from, to }));
    expect(state("completed")).toEqual({ status: "completed", experiments: "1", from: from.toISOString(), to: to.toISOString() });
    expect(state("cancelled").status).toBe("cancelled");
    expect(state("failed").status).toBe("failed");
    expect(state("running").status, "still running: any state of a working run").toBe("active");
    expect(query(drillDownHref({ series: "started_running", lineKey: "", breakdown: "none", filters: {}, from, to })).status).toBe("active");
    expect(query(drillDownHref({ series: "runs_by_state", lineKey: "help-desk", breakdown: "graph", filters: {}, from, to })), "split by graph: every state of that graph").toEqual({
      graph: "help-desk",
      experiments: "1",
      from: from.toISOString(),
      to: to.toISOString(),
    });
  });

  it("carries a model or tool filter only to series that record one: runs are not split by model, so their list is not narrowed by it", () => {
    expect(query(drillDownHref({ series: "runs_by_state", lineKey: "completed", breakdown: "none", filters: { model: "demo/assistant", tool: "lookup" }, from, to }))).not.toHaveProperty("model");
    expect(query(drillDownHref({ series: "model_latency", lineKey: "", breakdown: "none", filters: { model: "demo/assistant" }, from, to })).model).toBe("demo/assistant");
    expect(query(drillDownHref({ series: "tool_latency", lineKey: "", breakdown: "none", filters: { tool: "lookup" }, from, to })).tool).toBe("lookup");
  });

  it("keeps the view's filters and turns a breakdown key into the runs list's filter", () => {
    expect(query(drillDownHref({ series: "tool_latency", lineKey: "builder@zap.local", breakdown: "starter", filters: { version: 3, tool: "lookup_order" }, from, to }))).toEqual({
      version: "3",
      tool: "lookup_order",
      startedBy: "builder@zap.local",
      experiments: "1",
      from: from.toISOString(),
      to: to.toISOString(),
    });
    expect(query(drillDownHref({ series: "model_latency", lineKey: "demo/assistant", breakdown: "model", filters: {}, from, to })).model).toBe("demo/assistant");
    expect(query(drillDownHref({ series: "runs_completed", lineKey: "2", breakdown: "version", filters: {}, from, to }))).toMatchObject({ status: "completed", version: "2" });
  });

  it("links routing, plans and the typed failures to their own runs-list filters", () => {
    expect(query(drillDownHref({ series: "routing_decisions", lineKey: "billing", breakdown: "label", filters: {}, from, to })).routedTo).toBe("billing");
    expect(query(drillDownHref({ series: "plan_outcomes", lineKey: "partially_failed", breakdown: "label", filters: {}, from, to })).planOutcome).toBe("partially_failed");
    expect(query(drillDownHref({ series: "routing_exhausted", lineKey: "", breakdown: "none", filters: {}, from, to })).reason).toBe("routing_exhausted");
    expect(query(drillDownHref({ series: "validation_errors", lineKey: "", breakdown: "none", filters: {}, from, to })).reason).toBe("validation_error");
  });

  it("has no link where no runs-list filter says exactly which runs: 'other', a label the list cannot filter by", () => {
    expect(drillDownHref({ series: "runs_failed", lineKey: "other", breakdown: "label", filters: {}, from, to })).toBeNull();
    expect(drillDownHref({ series: "budget_asks", lineKey: "granted", breakdown: "label", filters: {}, from, to })).toBeNull();
    expect(drillDownHref({ series: "runs_started", lineKey: "", breakdown: "graph", filters: {}, from, to })).toBeNull();
  });
});
