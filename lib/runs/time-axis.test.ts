import { describe, expect, it } from "vitest";
import { axisLabels, axisRange, axisWork, breakText, GAP_WIDTH, scaleFromWork, timeScale } from "./time-axis";
import type { TraceSpanView } from "./schemas";
import { toSpanView } from "./span-rows";
import { textWidthPx } from "./bar-label";
import { EMPTY_PRICE_BOOK } from "../pricing/price-book";

const t0 = Date.parse("2026-11-22T00:00:00Z");
const at = (ms: number) => new Date(t0 + ms).toISOString();
function span(runId: string, id: string, parentId: string | null, kind: TraceSpanView["kind"], name: string, from: number, to: number | null, attributes?: TraceSpanView["attributes"]): TraceSpanView {
  return toSpanView(runId, { id, parentId, kind, name, status: to === null ? "running" : "ok", startedAt: at(from), endedAt: to === null ? null : at(to), ...(attributes ? { attributes } : {}) }, EMPTY_PRICE_BOOK);
}

/** A treasury run: a model call, a transfer whose tool call waits four minutes for an approver inside it, a last call. */
const MIN4 = 240_000;
const approvalRun = [
  span("p", "run", null, "run", "treasury", 0, 600 + MIN4),
  span("p", "it1", "run", "iteration", "iteration 1", 0, 300 + MIN4),
  span("p", "m1", "it1", "inference", "demo/treasury", 0, 200),
  span("p", "tool", "it1", "tool", "ledger_transfer", 200, 300 + MIN4),
  span("p", "wait", "tool", "approval_wait", "ledger_transfer", 250, 250 + MIN4),
  span("p", "it2", "run", "iteration", "iteration 2", 300 + MIN4, 600 + MIN4),
  span("p", "m2", "it2", "inference", "demo/treasury", 300 + MIN4, 600 + MIN4),
];

describe("timeScale", () => {
  it("is linear without idle gaps, and its inverse is too", () => {
    const spans = [span("p", "a", null, "tool", "x", 0, 1000)];
    const scale = timeScale(spans, t0, t0 + 1000);
    expect(scale.gaps).toEqual([]);
    expect(scale.toFraction(t0 + 250)).toBeCloseTo(0.25);
    expect(scale.fromFraction(0.25)).toBeCloseTo(t0 + 250);
  });

  it("compresses a long idle wait and stays monotonic", () => {
    const spans = [span("p", "a", null, "tool", "x", 0, 1000), span("p", "w", null, "approval_wait", "approval", 1000, 3_601_000), span("p", "b", null, "tool", "y", 3_601_000, 3_602_000)];
    const scale = timeScale(spans, t0, t0 + 3_602_000);
    expect(scale.gaps).toHaveLength(1);
    expect(scale.toFraction(t0 + 1000)).toBeCloseTo(0.485, 2);
    expect(scale.toFraction(t0 + 3_601_000)).toBeCloseTo(0.515, 2);
    expect(scale.toFraction(t0 + 3_602_000)).toBeCloseTo(1);
    let last = -1;
    for (let ms = 0; ms <= 3_602_000; ms += 60_000) {
      const x = scale.toFraction(t0 + ms);
      expect(x).toBeGreaterThanOrEqual(last);
      last = x;
    }
  });

  it("collapses a completed run's trailing follow-up window (a timer span) to a sliver", () => {
    const spans = [span("p", "a", null, "inference", "m", 0, 2000), span("p", "t", null, "timer", "follow-up window", 2000, 3_602_000)];
    const scale = timeScale(spans, t0, t0 + 3_602_000);
    expect(scale.gaps, "the hour of waiting is one gap").toEqual([{ start: t0 + 2000, end: t0 + 3_602_000, reason: "timer" }]);
    expect(scale.toFraction(t0 + 2000), "the work keeps nearly the whole width").toBeCloseTo(0.97, 2);
  });

  it("breaks an approval wait out of the axis even though the tool call that asked for it is open all along", () => {
    const scale = timeScale(approvalRun, t0, t0 + 600 + MIN4);
    // Before: the open tool call counted as work, so four minutes took the whole width and the calls were slivers.
    expect(scale.gaps).toEqual([{ start: t0 + 250, end: t0 + 250 + MIN4, reason: "approval" }]);
    const first = scale.toFraction(t0 + 200) - scale.toFraction(t0);
    expect(first, "the first model call keeps a third of the width, not 0.08 %").toBeGreaterThan(0.3);
    expect(scale.toFraction(t0 + 250 + MIN4) - scale.toFraction(t0 + 250)).toBeCloseTo(GAP_WIDTH);
  });

  it("takes a wait in an expanded sub-run out of the sub-agent span that opened the run", () => {
    const spans = [
      span("p", "sa", null, "sub_agent", "billing", 0, 100_000, { conversationId: "c" }),
      span("c", "run", null, "run", "billing", 0, 100_000),
      span("c", "m", "run", "inference", "demo/billing", 0, 500),
      span("c", "w", "run", "approval_wait", "refund", 500, 99_500),
      span("c", "m2", "run", "inference", "demo/billing", 99_500, 100_000),
    ];
    expect(timeScale(spans, t0, t0 + 100_000).gaps).toEqual([{ start: t0 + 500, end: t0 + 99_500, reason: "approval" }]);
  });

  it("leaves a wait alone while a parallel call works through it", () => {
    const spans = [...approvalRun, span("p", "other", "it1", "tool", "current_time", 200, 300 + MIN4)];
    expect(timeScale(spans, t0, t0 + 600 + MIN4).gaps).toEqual([]);
  });

  it("cuts waits from a second up, idle stretches only past 5 s and 15 % of the range", () => {
    const wait = [span("p", "a", null, "tool", "x", 0, 500), span("p", "w", null, "approval_wait", "x", 500, 2000), span("p", "b", null, "tool", "y", 2000, 2500)];
    expect(timeScale(wait, t0, t0 + 2500).gaps.map((g) => g.reason)).toEqual(["approval"]);
    const idle = [span("p", "a", null, "tool", "x", 0, 500), span("p", "b", null, "tool", "y", 2000, 2500)];
    expect(timeScale(idle, t0, t0 + 2500).gaps, "1.5 s of nothing is not cut").toEqual([]);
    const longIdle = [span("p", "a", null, "tool", "x", 0, 500), span("p", "b", null, "tool", "y", 60_000, 60_500)];
    expect(timeScale(longIdle, t0, t0 + 60_500).gaps).toEqual([{ start: t0 + 500, end: t0 + 60_000, reason: "idle" }]);
  });

  it("reads a wait still open to the end of the range (a run waiting now)", () => {
    const open = [span("p", "m", null, "inference", "m", 0, 300), span("p", "tool", null, "tool", "t", 300, null), span("p", "w", "tool", "approval_wait", "t", 350, null)];
    const scale = scaleFromWork(axisWork(open), t0, t0 + 30_000);
    expect(scale.gaps).toEqual([{ start: t0 + 350, end: t0 + 30_000, reason: "approval" }]);
  });

  it("maps fractions back to times through the breaks", () => {
    const scale = timeScale(approvalRun, t0, t0 + 600 + MIN4);
    for (const ms of [0, 100, 250, 1000, 250 + MIN4, 400 + MIN4, 600 + MIN4]) expect(scale.fromFraction(scale.toFraction(t0 + ms))).toBeCloseTo(t0 + ms, 0);
  });
});

describe("axisRange", () => {
  it("runs from the first start to the last end, an open span to the clock", () => {
    expect(axisRange([span("p", "a", null, "tool", "x", 100, 200), span("p", "b", null, "tool", "y", 150, null)], t0 + 900)).toEqual({ start: t0 + 100, end: t0 + 900 });
    expect(axisRange([], 5)).toEqual({ start: 0, end: 1 });
  });
});

describe("axisLabels", () => {
  const scale = timeScale(approvalRun, t0, t0 + 600 + MIN4);
  const overlap = (labels: ReturnType<typeof axisLabels>, width: number) => {
    const boxes = labels.map((l) => {
      const w = textWidthPx(l.text);
      const left = l.at * width - (l.align === "center" ? w / 2 : l.align === "end" ? w : 0);
      return { left, right: left + w };
    });
    return boxes.some((a, i) => boxes.some((b, j) => i < j && a.left < b.right && b.left < a.right)) || boxes.some((b) => b.left < 0 || b.right > width + 0.5);
  };

  it("says the cut wait in words, the two ends as elapsed time, and nothing overlaps", () => {
    const labels = axisLabels(scale, [0, 1], 700);
    expect(labels.filter((l) => l.kind === "break").map((l) => l.text)).toEqual(["⋯ 4 min waiting for approval"]);
    const ticks = labels.filter((l) => l.kind === "tick");
    expect(ticks[0]).toMatchObject({ text: "+0 ms", at: 0, align: "start" });
    expect(ticks.at(-1), "the axis ends at the run's end, in real time").toMatchObject({ text: "+4 min 1 s", at: 1, align: "end" });
    expect(labels.map((l) => l.at), "left to right").toEqual([...labels.map((l) => l.at)].sort((a, b) => a - b));
    expect(overlap(labels, 700)).toBe(false);
  });

  it("puts fewer ticks on a narrow axis, and shortens a break's words rather than overlap", () => {
    const wide = axisLabels(timeScale([span("p", "a", null, "tool", "x", 0, 10_000)], t0, t0 + 10_000), [0, 1], 800);
    const narrow = axisLabels(timeScale([span("p", "a", null, "tool", "x", 0, 10_000)], t0, t0 + 10_000), [0, 1], 250);
    expect(wide.map((l) => l.text)).toEqual(["+0 ms", "+2.5 s", "+5.0 s", "+7.5 s", "+10.0 s"]);
    expect(narrow.map((l) => l.text)).toEqual(["+0 ms", "+5.0 s", "+10.0 s"]);
    const tight = axisLabels(scale, [0, 1], 200);
    const cut = tight.find((l) => l.kind === "break");
    expect(cut?.text).not.toBe("⋯ 4 min waiting for approval");
    expect(cut?.title, "the whole sentence stays as its title").toBe("⋯ 4 min waiting for approval");
    expect(overlap(tight.filter((l) => l.text !== "⋯"), 200)).toBe(false);
  });

  it("begins a break's words at the break when centring them would run into the first tick (a narrow axis beside the panel)", () => {
    // As seen at 1440 px with a span's panel open: a 370 px axis, a 7.3 s approval wait a quarter of the way in.
    const spans = [
      span("p", "m", null, "inference", "m", 0, 150),
      span("p", "tool", null, "tool", "ledger_transfer", 150, 7_600),
      span("p", "w", "tool", "approval_wait", "ledger_transfer", 160, 7_460),
      span("p", "m2", null, "inference", "m", 7_600, 8_000),
    ];
    const labels = axisLabels(timeScale(spans, t0, t0 + 8_000), [0, 1], 370);
    expect(labels.find((l) => l.kind === "break")).toMatchObject({ text: "⋯ 7.3 s waiting for approval", align: "start" });
    expect(overlap(labels, 370)).toBe(false);
  });

  it("says a wait near either end of the run in words on a narrow axis, that end's tick giving way (trace-glance at 381 px)", () => {
    // A 15.2 s approval wait with 1 s of work before it and 100 ms after, or 100 ms before and 3 s after: however the
    // sentence was placed it ran into an end's tick, so the axis said "⋯" alone, as often as the calls around the
    // wait took those times.
    const run = (before: number, after: number) => {
      const wait = 15_200;
      const cut = before + wait + 100;
      return timeScale(
        [
          span("p", "run", null, "run", "treasury", 0, cut + after),
          span("p", "it1", "run", "iteration", "iteration 1", 0, cut),
          span("p", "m", "it1", "inference", "m", 0, before),
          span("p", "tool", "it1", "tool", "ledger_transfer", before, cut),
          span("p", "w", "tool", "approval_wait", "ledger_transfer", before + 50, before + 50 + wait),
          span("p", "it2", "run", "iteration", "iteration 2", cut, cut + after),
          span("p", "m2", "it2", "inference", "m", cut, cut + after),
        ],
        t0,
        t0 + cut + after,
      );
    };
    for (const [before, after] of [[1_000, 100], [100, 3_000]] as const) {
      const labels = axisLabels(run(before, after), [0, 1], 381);
      expect(labels.find((l) => l.kind === "break")?.text, `${before} ms before, ${after} ms after`).toBe("⋯ 15.2 s waiting for approval");
      expect(overlap(labels, 381)).toBe(false);
    }
  });

  it("labels a zoomed window with the times it shows", () => {
    const labels = axisLabels(timeScale([span("p", "a", null, "tool", "x", 0, 10_000)], t0, t0 + 10_000), [0.5, 1], 800);
    expect(labels[0]?.text).toBe("+5.0 s");
    expect(labels.at(-1)?.text).toBe("+10.0 s");
  });

  it("says what a break was", () => {
    expect(breakText({ start: 0, end: 12_000, reason: "idle" })).toBe("⋯ 12.0 s idle");
    expect(breakText({ start: 0, end: 3_600_000, reason: "timer" })).toBe("⋯ 1 h waiting on a timer");
  });
});
