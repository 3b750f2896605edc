// The step a chart is cut by, chosen from its range, and how the page says it.
import { describe, expect, it } from "vitest";
import { describeStep, MAX_POINTS, resolutionOfStep, stepMinutesFor } from "./step";

describe("the step of a range", () => {
  it("is the smallest round step that keeps a chart within MAX_POINTS points", () => {
    const cases: [string, number, number][] = [
      ["1 h", 60, 1],
      ["6 h", 360, 5],
      ["24 h", 1440, 10],
      ["2 d", 2880, 30],
      ["7 d", 7 * 1440, 120],
      ["30 d", 30 * 1440, 360],
      ["90 d", 90 * 1440, 1440],
    ];
    for (const [range, span, step] of cases) {
      expect(stepMinutesFor(span), range).toBe(step);
      expect(Math.ceil(span / step), `${range}: points`).toBeLessThanOrEqual(MAX_POINTS);
    }
    expect(stepMinutesFor(0), "an empty span still has a step").toBe(1);
    expect(stepMinutesFor(400 * 1440) % 1440, "beyond the list: whole days").toBe(0);
  });

  it("reads minute rows below an hour and hourly rows from an hour", () => {
    expect(resolutionOfStep(30)).toBe("minute");
    expect(resolutionOfStep(60)).toBe("hour");
    expect(resolutionOfStep(1440)).toBe("hour");
  });

  it("is said in the unit it fills, as the page's header says it", () => {
    expect(describeStep(60)).toBe("1 min");
    expect(describeStep(600)).toBe("10 min");
    expect(describeStep(360)).toBe("6 min");
    expect(describeStep(7200)).toBe("2 h");
    expect(describeStep(86_400)).toBe("1 d");
    expect(describeStep(90 * 60)).toBe("90 min");
    expect(describeStep(30)).toBe("30 s");
  });
});
