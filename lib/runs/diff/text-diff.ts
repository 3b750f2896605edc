// Inline word diff of a changed field (the `diff` library's diffWords), bounded
// so a huge tool result cannot stall the page: past the caps the caller shows
// both texts whole instead.
import { diffWords } from "diff";

export interface TextPart {
  value: string;
  /** "same" in both, "removed" only in A, "added" only in B. */
  change: "same" | "removed" | "added";
}

/** Texts longer than this (either side) are not diffed inline. */
export const INLINE_DIFF_MAX_CHARS = 20_000;
/** diffWords gives up after this long (ms); the caller then shows both texts whole. */
const DIFF_TIMEOUT_MS = 50;

/** The word-level changes from `a` to `b`, or null when the texts are too long or too different to diff quickly. */
export function inlineDiff(a: string, b: string): TextPart[] | null {
  if (a.length > INLINE_DIFF_MAX_CHARS || b.length > INLINE_DIFF_MAX_CHARS) return null;
  const changes = diffWords(a, b, { timeout: DIFF_TIMEOUT_MS });
  if (!changes) return null;
  return changes.map((c) => ({ value: c.value, change: c.added ? "added" : c.removed ? "removed" : "same" }));
}
