// Where a trace bar's label goes, pure so it is tested without a browser: a
// duration is never cut ("470 m", "18.3"). It stands after its bar when it fits
// before the timeline's edge, inside a bar wide enough to hold it, else before
// the bar; only a label that fits nowhere (a timeline narrower than the label)
// is left to the row's ellipsis.

/** Px per character of the trace's 10 px labels (digits and units; a little over their real width). */
const CHAR_PX = 6;

/** The width of a 10 px label, estimated from its length (layout is not measured per row: 200,000 rows). */
export function textWidthPx(text: string): number {
  return Math.ceil(text.length * CHAR_PX) + 2;
}

export type LabelSide = "after" | "inside" | "before";

/** Room between a bar and its label, and inside a bar around it, in px. */
export const LABEL_GAP_PX = 4;

/**
 * Where a label of `labelPx` goes beside a bar from `startPx` to `endPx` on a
 * timeline `trackPx` wide so all of it shows; null when it fits nowhere.
 */
export function barLabelSide(bar: { startPx: number; endPx: number }, labelPx: number, trackPx: number): LabelSide | null {
  if (bar.endPx + LABEL_GAP_PX + labelPx <= trackPx) return "after";
  if (bar.endPx - bar.startPx >= labelPx + 2 * LABEL_GAP_PX) return "inside";
  if (bar.startPx - LABEL_GAP_PX - labelPx >= 0) return "before";
  return null;
}
