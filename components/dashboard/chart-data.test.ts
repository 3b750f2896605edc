import { describe, expect, it } from "vitest";
import { axisEndMs, gridEndMs, gridSeconds, isolatedPoints, nearestFilled, pickNearestLine, pickStackedLine, stackLines, type ChartLine } from "./chart-data";
import { formatAxis, formatCompact, formatMetric } from "./format";

const line = (key: string, values: (number | null)[]): ChartLine => ({ key, label: key, color: "#000", values });

describe("stacked bars", () => {
  const lines = [line("model_error", [0, 2, 1]), line("timeout", [1, 3, 0]), line("budget_exceeded", [0, 0, null])];
  const stacked = stackLines(lines);

  it("stacks each line on the ones below it", () => {
    expect(stacked).toEqual([
      [0, 2, 1],
      [1, 5, 1],
      [1, 5, 1],
    ]);
  });

  it("picks the segment a click lands in, the top one above the bar, none on an empty bar", () => {
    expect(pickStackedLine(stacked, 1, 1.5)).toBe(0);
    expect(pickStackedLine(stacked, 1, 4)).toBe(1);
    expect(pickStackedLine(stacked, 1, 9), "above the bar: its top segment").toBe(1);
    expect(pickStackedLine(stacked, 0, 0.5), "an empty bottom segment is skipped").toBe(1);
    expect(pickStackedLine(stackLines([line("a", [0])]), 0, 0.5)).toBeNull();
  });

  it("finds the nearest bucket with data within reach, the earlier one on a tie", () => {
    const sparse = [line("a", [0, 0, 0, 4, 0, 0, 2])];
    expect(nearestFilled(sparse, 3, 0)).toBe(3);
    expect(nearestFilled(sparse, 1, 2)).toBe(3);
    expect(nearestFilled(sparse, 5, 1), "4 is empty, 6 is one bucket away").toBe(6);
    expect(nearestFilled(sparse, 0, 2), "out of reach").toBeNull();
    expect(nearestFilled([line("a", [1, 0, 1])], 1, 1)).toBe(0);
  });
});

describe("the grid's end", () => {
  it("is the end of the slot that holds the range's end: whole bars, and links that move once a slot", () => {
    const range = { from: "2026-11-29T10:00:00.000Z", to: "2026-11-29T10:24:31.250Z", stepSeconds: 600, resolution: "minute" } as const;
    expect(new Date(gridEndMs(range)).toISOString()).toBe("2026-11-29T10:30:00.000Z");
    expect(gridEndMs({ ...range, to: "2026-11-29T10:29:59.000Z" }), "the same slot, the same end").toBe(gridEndMs(range));
    expect(new Date(gridEndMs({ ...range, to: "2026-11-29T10:30:00.000Z" })).toISOString(), "a custom end on a boundary").toBe("2026-11-29T10:30:00.000Z");
  });
});

describe("the time axis's end", () => {
  it("is the range's end, not the end of the hour that holds it (7 d: two-hour slots on hourly rows)", () => {
    // 7 d at 10:05: the grid runs to 11:00 (the hour holding now); its last slot, 09:00–11:00, is being filled.
    const week = { from: "2026-11-23T11:00:00.000Z", to: "2026-11-30T10:05:00.000Z", stepSeconds: 7200, resolution: "hour" } as const;
    expect(new Date(gridEndMs(week)).toISOString(), "the grid (and the drill-down links) run to the hour's end").toBe("2026-11-30T11:00:00.000Z");
    expect(new Date(axisEndMs(week)).toISOString(), "the axis ends now").toBe(week.to);
    // 30 d: six-hour slots counted back from 11:00, the last one 05:00–11:00.
    const month = { from: "2026-10-31T05:00:00.000Z", to: "2026-11-30T10:05:00.000Z", stepSeconds: 21_600, resolution: "hour" } as const;
    expect(new Date(gridEndMs(month)).toISOString()).toBe("2026-11-30T11:00:00.000Z");
    expect(new Date(axisEndMs(month)).toISOString()).toBe(month.to);
  });

  it("keeps the slot being filled in view: a bar starting before the end, at least a quarter of a slot of it", () => {
    const week = { from: "2026-11-23T11:00:00.000Z", to: "2026-11-30T10:05:00.000Z", stepSeconds: 7200, resolution: "hour" } as const;
    const lastSlot = gridSeconds(week, []).at(-1) ?? Number.NaN;
    expect(new Date(lastSlot * 1000).toISOString(), "the slot being filled is on the grid").toBe("2026-11-30T09:00:00.000Z");
    expect(axisEndMs(week) - lastSlot * 1000, "65 of its 120 minutes in view").toBe(65 * 60_000);
    // 1 h, a second into the minute: the axis ends 15 s after the slot's start, not a second after it.
    const hour = { from: "2026-11-30T09:06:00.000Z", to: "2026-11-30T10:05:01.000Z", stepSeconds: 60, resolution: "minute" } as const;
    expect(new Date(axisEndMs(hour)).toISOString()).toBe("2026-11-30T10:05:15.000Z");
    // A custom range that ends on a slot's boundary ends there: its last slot is whole.
    const custom = { from: "2026-11-29T10:00:00.000Z", to: "2026-11-29T11:00:00.000Z", stepSeconds: 600, resolution: "minute" } as const;
    expect(axisEndMs(custom)).toBe(Date.parse(custom.to));
  });
});

describe("lines", () => {
  it("mark the readings with no reading beside them, which a line alone would not draw", () => {
    expect(isolatedPoints([null, 3, null, null, 4, 5, null, 6])).toEqual([1, 7]);
    expect(isolatedPoints([0, null])).toEqual([0]);
    expect(isolatedPoints([null, null])).toEqual([]);
  });

  it("picks the line nearest the click's value, skipping gaps", () => {
    const lines = [line("p95", [100, null]), line("other", [400, 50])];
    expect(pickNearestLine(lines, 0, 380)).toBe(1);
    expect(pickNearestLine(lines, 0, 120)).toBe(0);
    expect(pickNearestLine(lines, 1, 1000)).toBe(1);
    expect(pickNearestLine([line("a", [null])], 0, 1)).toBeNull();
  });

  it("builds the grid from the range when no line has points", () => {
    expect(gridSeconds({ from: "2026-11-26T10:00:00.000Z", to: "2026-11-26T10:03:00.000Z", stepSeconds: 60, resolution: "minute" }, [])).toEqual([0, 60, 120].map((s) => Date.parse("2026-11-26T10:00:00.000Z") / 1000 + s));
  });
});

describe("format", () => {
  it("says each unit in words, and '—' where nothing was measured", () => {
    expect(formatMetric(12345, "count")).toBe("12,345");
    expect(formatMetric(1500, "tokens")).toBe("1,500 tok");
    expect(formatMetric(250, "ms")).toBe("250 ms");
    expect(formatMetric(0.125, "ratio")).toBe("12.5 %");
    expect(formatMetric(1, "ratio")).toBe("100 %");
    expect(formatMetric(0.5, "usd")).toBe("$0.50");
    expect(formatMetric(null, "ms")).toBe("—");
    expect(formatAxis(12_300, "count")).toBe("12.3K");
    expect(formatAxis(2500, "ms")).toBe("2.5 s");
  });

  it("shortens a count past 100,000 for a tile ('12.3M'), in full below it", () => {
    expect(formatCompact(12_345_678)).toBe("12.3M");
    expect(formatCompact(1_250_000)).toBe("1.3M");
    expect(formatCompact(100_000)).toBe("100K");
    expect(formatCompact(483_210)).toBe("483.2K");
    expect(formatCompact(99_999), "below 100,000: every digit").toBe("99,999");
    expect(formatCompact(12_345)).toBe("12,345");
    expect(formatCompact(0)).toBe("0");
    expect(formatCompact(2_000_000_000)).toBe("2B");
  });
});
