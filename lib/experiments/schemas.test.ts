// The start input of an experiment: strict keys, bounds, and the mistakes a
// form or a script makes (a target or a scorer twice) named by path.
import { describe, expect, it } from "vitest";
import { startExperimentSchema } from "./schemas";

const base = { dataset: "refunds", targets: [{ graph: "support-triage", version: 3 }], scorers: [{ kind: "exact" }] };
const issues = (input: unknown) => {
  const parsed = startExperimentSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("startExperimentSchema", () => {
  it("accepts the smallest input and the full one", () => {
    expect(issues(base)).toEqual([]);
    expect(
      issues({ ...base, name: "n", datasetVersion: 2, targets: [{ graph: "g", version: 1, model: "demo/assistant" }, { graph: "g", version: 2 }], thresholds: { exact: 0.8 }, concurrency: 16, approvals: "approve", stubs: [{ tool: "lookup_order", result: "{}" }], liveTools: ["calculator"] }),
    ).toEqual([]);
  });

  it("refuses unknown keys, at the top and in a target", () => {
    expect(issues({ ...base, agent: "x" }).join()).toContain("agent");
    expect(issues({ ...base, targets: [{ graph: "g", version: 1, extra: true }] }).join()).toContain("extra");
  });

  it("bounds targets (1..6), concurrency (1..16) and thresholds (0..1)", () => {
    expect(issues({ ...base, targets: [] })).toEqual(["targets: name at least one target"]);
    expect(issues({ ...base, targets: Array.from({ length: 7 }, (_, i) => ({ graph: "g", version: i + 1 })) })).toEqual(["targets: at most 6 targets"]);
    expect(issues({ ...base, concurrency: 17 })[0]).toMatch(/^concurrency:/);
    expect(issues({ ...base, concurrency: 0 })[0]).toMatch(/^concurrency:/);
    expect(issues({ ...base, thresholds: { exact: 1.5 } })[0]).toMatch(/^thresholds\.exact:/);
    expect(issues({ ...base, approvals: "inbox" })[0]).toMatch(/^approvals:/);
  });

  it("names a target or a scorer listed twice", () => {
    expect(issues({ ...base, targets: [{ graph: "g", version: 1 }, { graph: "g", version: 1 }] })).toEqual(["targets.1: this target is listed twice"]);
    expect(issues({ ...base, targets: [{ graph: "g", version: 1 }, { graph: "g", version: 1, model: "demo/other" }] })).toEqual([]);
    expect(issues({ ...base, scorers: [{ kind: "exact" }, { kind: "exact", caseSensitive: true }] })).toEqual(['scorers.1: scorer "exact" is listed twice']);
  });
});
