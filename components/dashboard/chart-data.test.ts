import { describe, expect, it } from "vitest";
import { gridEndMs, gridSeconds, isolatedPoints, nearestFilled, pickNearestLine, pickStackedLine, stackLines, type ChartLine } from "./chart-data";
import { formatAxis, formatMetric } from "./format";

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
});
