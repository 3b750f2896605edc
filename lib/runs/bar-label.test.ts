import { describe, expect, it } from "vitest";
import { barLabelSide, LABEL_GAP_PX, textWidthPx } from "./bar-label";
import { formatDuration } from "../format/figures";

describe("barLabelSide", () => {
  const label = textWidthPx("470 ms");

  it("puts the label after a bar when it fits before the timeline's end", () => {
    expect(barLabelSide({ startPx: 10, endPx: 40 }, label, 400)).toBe("after");
  });

  it("puts it inside a bar that reaches the end and is wide enough (the run's own bar)", () => {
    expect(barLabelSide({ startPx: 0, endPx: 400 }, label, 400)).toBe("inside");
  });

  it("puts it before a narrow bar at the end: never past the edge, where it was cut ('470 m')", () => {
    expect(barLabelSide({ startPx: 380, endPx: 398 }, label, 400)).toBe("before");
    const side = barLabelSide({ startPx: 380, endPx: 398 }, label, 400);
    expect(side).not.toBe("after");
  });

  it("fits exactly at the edge, and says nowhere when the timeline is narrower than the label", () => {
    expect(barLabelSide({ startPx: 0, endPx: 10 }, label, 10 + LABEL_GAP_PX + label)).toBe("after");
    expect(barLabelSide({ startPx: 0, endPx: 10 }, label, 20)).toBeNull();
  });
});

describe("the bar's duration", () => {
  it("reads compactly, and its estimated width is at least what it needs at 10 px (about 5.5 px a character)", () => {
    expect(formatDuration(470)).toBe("470 ms");
    expect(formatDuration(18_300)).toBe("18.3 s");
    for (const text of ["470 ms", "18.3 s", "20 min 12 s"]) expect(textWidthPx(text)).toBeGreaterThanOrEqual(Math.ceil(text.length * 5.5));
  });
});
