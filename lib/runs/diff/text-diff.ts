// Inline word diff of a changed field (the `diff` library's diffWords), bounded
// so a huge tool result cannot stall the page: past the caps the caller shows
// both texts whole instead. The bounds are sizes, never a clock: each side of a
// step diffs the pair on its own, and a wall-clock timeout let one side mark its
// words while the other, slower by a few ms on a busy machine, showed none (an
// e2e compare failure). Sizes give every side and every reader the same answer.
import { diffWords } from "diff";

export interface TextPart {
  value: string;
  /** "same" in both, "removed" only in A, "added" only in B. */
  change: "same" | "removed" | "added";
}

/** Texts longer than this (either side) are not diffed inline. */
export const INLINE_DIFF_MAX_CHARS = 20_000;
/**
 * diffWords gives up past this many word edits; the caller then shows both texts whole. Myers' algorithm costs
 * about (words of both) × (edits), so at the character cap this stays in the low milliseconds.
 */
export const INLINE_DIFF_MAX_EDITS = 400;

/** The word-level changes from `a` to `b`, or null when the texts are too long or too different to diff quickly. */
export function inlineDiff(a: string, b: string): TextPart[] | null {
  if (a.length > INLINE_DIFF_MAX_CHARS || b.length > INLINE_DIFF_MAX_CHARS) return null;
  const changes = diffWords(a, b, { maxEditLength: INLINE_DIFF_MAX_EDITS });
  if (!changes) return null;
  return changes.map((c) => ({ value: c.value, change: c.added ? "added" : c.removed ? "removed" : "same" }));
}
