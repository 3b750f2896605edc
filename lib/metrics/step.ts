// The step a chart is bucketed by, chosen from its range once: the metrics
// read (lib/metrics/assemble.ts) builds its grid with it, the answer carries it
// as range.stepSeconds, and the overview's header says it with describeStep, so
// the page never names a step the API did not use. Browser-safe and pure.

/** Steps a range may be cut into, in minutes: round figures a reader can say ("10 min", "2 h"). */
export const STEP_MINUTES = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440] as const;

/**
 * At most this many points per chart. A chart is ~340 px wide in the overview's three columns at 1440 px,
 * so a bar keeps ≥ 2 px and activity reads as bars, not a hairline (24 h: 144 ten-minute bars).
 */
export const MAX_POINTS = 150;

/** The smallest round step that cuts `spanMinutes` into at most MAX_POINTS points (whole days beyond the list). */
export function stepMinutesFor(spanMinutes: number): number {
  const span = Math.max(1, Math.ceil(spanMinutes));
  for (const step of STEP_MINUTES) if (Math.ceil(span / step) <= MAX_POINTS) return step;
  return Math.ceil(span / MAX_POINTS / 1440) * 1440;
}

/** Which rollups a step reads: minute rows below an hour, hourly rows from an hour up (a 30-day chart reads 120 rows per key, not 43,200). */
export function resolutionOfStep(stepMinutes: number): "minute" | "hour" {
  return stepMinutes >= 60 ? "hour" : "minute";
}

/** A step in words: "1 min", "10 min", "2 h", "1 d", in the largest unit it fills whole ("90 min"). */
export function describeStep(stepSeconds: number): string {
  if (stepSeconds < 60 || stepSeconds % 60 !== 0) return `${stepSeconds} s`;
  const minutes = stepSeconds / 60;
  if (minutes % 1440 === 0) return `${minutes / 1440} d`;
  if (minutes % 60 === 0) return `${minutes / 60} h`;
  return `${minutes} min`;
}
