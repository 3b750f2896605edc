// `?graph=<name>[&new=1]` on /schedules and /webhooks (a graph's Triggers tab links there).
import { describe, expect, it } from "vitest";
import { triggersPreset } from "./graph-filter";

describe("triggersPreset", () => {
  it("takes a graph name and whether to open the form; anything else shows the whole list", () => {
    expect(triggersPreset({ graph: "support-triage", new: "1" })).toEqual({ graph: "support-triage", open: true });
    expect(triggersPreset({ graph: "support-triage" })).toEqual({ graph: "support-triage", open: false });
    expect(triggersPreset({ graph: "support-triage", new: "yes" })?.open).toBe(false);
    expect(triggersPreset({})).toBeNull();
    expect(triggersPreset({ graph: "../etc/passwd" }), "not a graph name").toBeNull();
    expect(triggersPreset({ graph: ["a", "b"] }), "given twice").toBeNull();
  });
});
