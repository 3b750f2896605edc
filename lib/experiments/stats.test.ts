import { describe, expect, it } from "vitest";
import { excludesZero, formatInterval, meanInterval, pairedDeltaInterval, tCritical95, wilsonInterval } from "./stats";

describe("Wilson interval for pass rates", () => {
  it("matches the textbook value for 8 of 10 (0.490–0.943)", () => {
    const interval = wilsonInterval(8, 10);
    expect(interval?.estimate).toBe(0.8);
    expect(interval?.low).toBeCloseTo(0.4902, 3);
    expect(interval?.high).toBeCloseTo(0.9433, 3);
  });

  it("stays inside 0..1 and is not degenerate at 0 % and 100 %", () => {
    const none = wilsonInterval(0, 20);
    expect(none?.low).toBe(0);
    expect(none?.high).toBeGreaterThan(0.1);
    const all = wilsonInterval(20, 20);
    expect(all?.high).toBe(1);
    expect(all?.low).toBeCloseTo(0.8389, 3);
  });

  it("narrows as n grows, and is null without items", () => {
    const small = wilsonInterval(5, 10);
    const large = wilsonInterval(500, 1000);
    expect((large?.high ?? 1) - (large?.low ?? 0)).toBeLessThan((small?.high ?? 1) - (small?.low ?? 0));
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

describe("t interval for mean scores", () => {
  it("matches a hand computation: [0.4, 0.5, 0.6] → mean 0.5, half-width 4.303·0.1/√3", () => {
    const interval = meanInterval([0.4, 0.5, 0.6]);
    expect(interval?.estimate).toBeCloseTo(0.5);
    expect(interval?.low).toBeCloseTo(0.5 - (4.303 * 0.1) / Math.sqrt(3), 6);
    expect(interval?.high).toBeCloseTo(0.5 + (4.303 * 0.1) / Math.sqrt(3), 6);
  });

  it("is clamped to 0..1, zero-width for identical values, whole range for one value, null for none", () => {
    expect(meanInterval([0, 1])).toMatchObject({ low: 0, high: 1 });
    const same = meanInterval([0.75, 0.75, 0.75]);
    expect(same).toMatchObject({ estimate: 0.75, low: 0.75, high: 0.75 });
    expect(meanInterval([0.3])).toMatchObject({ estimate: 0.3, low: 0, high: 1, n: 1 });
    expect(meanInterval([])).toBeNull();
  });

  it("t quantiles: the table, then an expansion that meets the known values at 60 and 120 df", () => {
    expect(tCritical95(1)).toBe(12.706);
    expect(tCritical95(30)).toBe(2.042);
    expect(tCritical95(60)).toBeCloseTo(2.0003, 3);
    expect(tCritical95(120)).toBeCloseTo(1.9799, 3);
    expect(tCritical95(1e9)).toBeCloseTo(1.96, 3);
  });

  it("formats for a table cell", () => {
    expect(formatInterval(wilsonInterval(8, 10))).toBe("0.80 (0.49 to 0.94)");
    expect(formatInterval(pairedDeltaInterval([[0, 0.5], [0, 0.5]]), 2, true)).toBe("+0.50 (+0.50 to +0.50)");
    expect(formatInterval(null)).toBe("—");
  });
});

describe("paired change against the baseline", () => {
  it("is the mean per-item difference with a t interval in -1..1", () => {
    // Differences -0.2, -0.4, -0.6: mean -0.4, sd 0.2, half-width 4.303·0.2/√3 ≈ 0.497.
    const delta = pairedDeltaInterval([
      [1, 0.8],
      [1, 0.6],
      [1, 0.4],
    ]);
    expect(delta?.estimate).toBeCloseTo(-0.4);
    expect(delta?.low).toBeCloseTo(-0.4 - (4.303 * 0.2) / Math.sqrt(3), 6);
    expect(delta?.high).toBeCloseTo(-0.4 + (4.303 * 0.2) / Math.sqrt(3), 6);
    expect(excludesZero(delta)).toBe(false);
  });

  it("a consistent drop over many items excludes zero; item difficulty cancels out", () => {
    // Items of very different difficulty, each 0.1 worse on the target: unpaired intervals would overlap, the paired one does not.
    const pairs = Array.from({ length: 20 }, (_, i) => [0.15 + i * 0.04, 0.05 + i * 0.04] as const);
    const delta = pairedDeltaInterval(pairs);
    expect(delta?.estimate).toBeCloseTo(-0.1);
    expect(excludesZero(delta)).toBe(true);
    const base = meanInterval(pairs.map(([a]) => a));
    const target = meanInterval(pairs.map(([, b]) => b));
    expect((target?.high ?? 0) > (base?.low ?? 1), "the unpaired intervals overlap").toBe(true);
  });

  it("one pair is the whole range and decides nothing; none is null", () => {
    expect(pairedDeltaInterval([[1, 0]])).toMatchObject({ estimate: -1, low: -1, high: 1, n: 1 });
    expect(excludesZero(pairedDeltaInterval([[1, 0]]))).toBe(false);
    expect(pairedDeltaInterval([])).toBeNull();
  });
});
