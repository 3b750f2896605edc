import { describe, expect, it } from "vitest";
import { runFiltersSchema } from "./schemas";

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
