// Pure helpers behind the canvas chart: the grid, stacking and which bar a
// click meant (colours: series-colors.ts). Kept apart from uPlot so they are
// tested without a DOM.
import type { MetricLine, MetricsDashboard } from "@/lib/metrics/schemas";

/** One line as the chart draws it. */
export interface ChartLine {
  key: string;
  label: string;
  color: string;
  values: (number | null)[];
}

/** The x values of a response's grid in seconds (uPlot's time unit). */
export function gridSeconds(range: MetricsDashboard["range"], lines: readonly MetricLine[]): number[] {
  const first = lines[0];
  if (first) return first.points.map((p) => Date.parse(p.t) / 1000);
  const from = Date.parse(range.from) / 1000;
  const to = Date.parse(range.to) / 1000;
  const xs: number[] = [];
  for (let t = from; t < to; t += range.stepSeconds) xs.push(t);
  return xs;
}

/**
 * Where a response's grid ends (ms): the end of the slot that holds range.to. For a range that ends now, the
 * slot still being filled ends a moment later (within a minute; an hour for hourly rows). The drill-down links
 * of the whole range end here: their `to` moves once a slot, not at every refresh (each new link would be
 * prefetched again), and lists what the tiles count. The time axis does not (axisEndMs).
 */
export function gridEndMs(range: MetricsDashboard["range"]): number {
  const from = Date.parse(range.from);
  const step = range.stepSeconds * 1000;
  return from + Math.max(1, Math.ceil((Date.parse(range.to) - from) / step)) * step;
}

/**
 * Where a chart's time axis ends (ms): at the range's end (now, for a range that ends now), not at its grid's
 * end, which for hourly rows is up to an hour later (7 d, 30 d). The slot being filled starts before it and is
 * drawn cut at now; where that would leave less than a quarter of it (a 1-minute slot a second old), the axis
 * ends a quarter-slot after that slot's start instead, so the bar being filled is never a hairline.
 */
export function axisEndMs(range: MetricsDashboard["range"]): number {
  const end = Date.parse(range.to);
  const step = range.stepSeconds * 1000;
  const lastSlotStart = gridEndMs(range) - step;
  return Math.max(end, lastSlotStart + step / 4);
}

/** Running sums of the lines, bottom line first: a stacked bar i is drawn from 0 to cumulative[i]. */
export function stackLines(lines: readonly ChartLine[]): number[][] {
  const out: number[][] = [];
  let below: number[] | undefined;
  for (const line of lines) {
    const sums = line.values.map((v, i) => (v ?? 0) + (below?.[i] ?? 0));
    out.push(sums);
    below = sums;
  }
  return out;
}

/**
 * Which line of a stacked bar a click at `value` (on the y scale) landed on:
 * the lowest segment whose top is at or above it; a click above the bar picks
 * its top segment. Null when the bar is empty.
 */
export function pickStackedLine(cumulative: readonly (readonly number[])[], idx: number, value: number): number | null {
  let top: number | null = null;
  for (let line = 0; line < cumulative.length; line++) {
    const here = cumulative[line]?.[idx] ?? 0;
    const below = line === 0 ? 0 : (cumulative[line - 1]?.[idx] ?? 0);
    if (here > below) {
      top = line;
      if (value <= here) return line;
    }
  }
  return top;
}

/** For lines: the line whose value at `idx` is nearest to `value`; null when none has one. */
export function pickNearestLine(lines: readonly ChartLine[], idx: number, value: number): number | null {
  let best: number | null = null;
  let bestDistance = Infinity;
  lines.forEach((line, i) => {
    const v = line.values[idx];
    if (v === null || v === undefined) return;
    const distance = Math.abs(v - value);
    if (distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  });
  return best;
}

/**
 * Thin bars are hard to hit: the index of the nearest bucket with anything in
 * it, at most `reach` buckets from `idx` (ties go left, to the earlier bucket).
 */
export function nearestFilled(lines: readonly ChartLine[], idx: number, reach: number): number | null {
  const filled = (i: number) => lines.some((line) => (line.values[i] ?? 0) !== 0);
  for (let d = 0; d <= reach; d++) {
    if (filled(idx - d)) return idx - d;
    if (filled(idx + d)) return idx + d;
  }
  return null;
}

/**
 * The readings of a line with no reading on either side: a line joins neighbours, so alone they would draw
 * nothing at all (one slow run in a day of 144 intervals). The chart marks them with a dot.
 */
export function isolatedPoints(values: ArrayLike<number | null | undefined>): number[] {
  const has = (i: number) => values[i] !== null && values[i] !== undefined;
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) if (has(i) && !has(i - 1) && !has(i + 1)) out.push(i);
  return out;
}
