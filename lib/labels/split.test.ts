import { describe, expect, it } from "vitest";
import { bucketOf, contextKeyValue, drawKey, drawVariant, hash32, splitFromRow, stickyText } from "./split";

describe("a split's draw", () => {
  it("is deterministic: the same key lands on the same side every time", () => {
    const split = { percent: 20 };
    for (let i = 0; i < 50; i++) {
      const key = `context:customer-${i}`;
      expect(drawVariant("support-triage", "production", split, key)).toBe(drawVariant("support-triage", "production", split, key));
    }
    expect(hash32("abc")).toBe(hash32("abc"));
    expect(hash32("abc")).not.toBe(hash32("abd"));
  });

  it("sends about the split's share of 2,000 keys to the split (within 3 points)", () => {
    const keys = Array.from({ length: 2000 }, (_, i) => `context:c${i}`);
    for (const percent of [5, 20, 50]) {
      const share = keys.filter((key) => drawVariant("g", "production", { percent }, key) === "split").length / keys.length;
      expect(Math.abs(share * 100 - percent)).toBeLessThan(3);
    }
  });

  it("keeps a key on the split as the share grows (a ramp from 10 % to 30 % only adds keys)", () => {
    const keys = Array.from({ length: 500 }, (_, i) => `run:${i}`);
    const at10 = keys.filter((key) => drawVariant("g", "l", { percent: 10 }, key) === "split");
    const at30 = new Set(keys.filter((key) => drawVariant("g", "l", { percent: 30 }, key) === "split"));
    expect(at10.every((key) => at30.has(key))).toBe(true);
  });

  it("draws independently per label and graph", () => {
    const keys = Array.from({ length: 400 }, (_, i) => `context:${i}`);
    const same = keys.filter((key) => (bucketOf("g", "production", key) < 50) === (bucketOf("g", "staging", key) < 50)).length;
    expect(same).toBeLessThan(260);
    expect(same).toBeGreaterThan(140);
  });

  it("0 % is always the label's version and 100 % always the split's", () => {
    expect(drawVariant("g", "l", { percent: 0 }, "x")).toBe("base");
    expect(drawVariant("g", "l", { percent: 100 }, "x")).toBe("split");
  });

  it("draws by the context value when sticky to a key, else (or without the key) by the run", () => {
    const bySplit = { sticky: "context" as const, contextKey: "customerId" };
    expect(drawKey(bySplit, { customerId: "c-1" }, "r1")).toEqual({ key: "context:c-1", from: "context" });
    expect(drawKey(bySplit, { customerId: 42 }, "r1")).toEqual({ key: "context:42", from: "context" });
    expect(drawKey(bySplit, {}, "r1")).toEqual({ key: "run:r1", from: "run" });
    expect(drawKey({ sticky: "conversation" }, { customerId: "c-1" }, "r1")).toEqual({ key: "run:r1", from: "run" });
    expect(contextKeyValue({ a: null }, "a")).toBeNull();
  });

  it("stores its stickiness as text and reads it back", () => {
    const split = { version: 4, percent: 20, sticky: "context" as const, contextKey: "customerId" };
    expect(stickyText(split)).toBe("context:customerId");
    expect(splitFromRow({ splitVersion: 4, splitPercent: 20, splitSticky: "context:customerId" })).toEqual(split);
    expect(splitFromRow({ splitVersion: 4, splitPercent: 5, splitSticky: "conversation" })).toEqual({ version: 4, percent: 5, sticky: "conversation" });
    expect(splitFromRow({ splitVersion: null, splitPercent: 0, splitSticky: null })).toBeNull();
  });
});
