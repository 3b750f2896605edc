// One colour per series key, on every chart of the overview: a key's colour is
// a function of the key (its meaning for the words the charts share, a hash of
// it for the rest), never of its place in a chart's legend, which changes with
// each chart's totals. Red is kept for failures, so a red line always means
// something failed. Pure, so the rule is unit-tested.

/** The status badges' red: failure-like keys only. */
export const FAILURE_COLOR = "#dc2626";
const OTHER_COLOR = "#a1a1aa";

/** Keys that name a failure (run states, tool outcomes, decisions): drawn red. */
const FAILURE_KEYS = new Set(["failed", "failure", "error", "errored", "rejected", "refused"]);

/**
 * Words the charts share, each one colour wherever it appears: success green, waiting grey, the one line of an
 * unsplit chart ("") indigo, percentiles in three steps of one hue. None of them is in the hashed palette.
 */
const MEANING_COLORS: Record<string, string> = {
  "": "#4f46e5",
  completed: "#059669",
  ok: "#059669",
  approved: "#059669",
  granted: "#059669",
  running: "#6366f1",
  requested: "#6366f1",
  cancelled: "#71717a",
  expired: "#d97706",
  partially_failed: "#ea580c",
  p50: "#38bdf8",
  p95: "#4f46e5",
  p99: "#9333ea",
  other: OTHER_COLOR,
};

/** Any other key (a graph, a model, a tool, a reason…) hashes into these: distinct on white, no red, no colour of a meaning above. */
export const KEY_PALETTE = ["#2563eb", "#0d9488", "#7c3aed", "#65a30d", "#c026d3", "#a16207", "#0891b2", "#475569", "#1e3a8a", "#4d7c0f"] as const;

/** FNV-1a over the key's UTF-16 units: the same key gives the same place in any browser. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

function fixedColor(key: string): string | undefined {
  return MEANING_COLORS[key] ?? (FAILURE_KEYS.has(key) ? FAILURE_COLOR : undefined);
}

/** A key's own colour: its meaning's, red for a failure, else its place in KEY_PALETTE by hash. */
export function keyColor(key: string): string {
  return fixedColor(key) ?? KEY_PALETTE[hashOf(key) % KEY_PALETTE.length] ?? OTHER_COLOR;
}

/**
 * The colours of every key one page draws, for all its charts at once: each key its keyColor, except that two
 * hashed keys landing on the same colour are told apart (the later key, in sorted order, takes the next free
 * colour). The map is per page, not per chart, so a key keeps one colour on every chart of the page.
 */
export function assignColors(keys: Iterable<string>): Map<string, string> {
  const colors = new Map<string, string>();
  const hashed: string[] = [];
  for (const key of new Set(keys)) {
    const fixed = fixedColor(key);
    if (fixed) colors.set(key, fixed);
    else hashed.push(key);
  }
  const taken = new Set<number>();
  for (const key of hashed.sort()) {
    const start = hashOf(key) % KEY_PALETTE.length;
    let place = start;
    // Once the palette is used up, colours repeat from each key's own place.
    for (let step = 0; step < KEY_PALETTE.length && taken.has(place); step++) place = (start + step + 1) % KEY_PALETTE.length;
    if (taken.size < KEY_PALETTE.length) taken.add(place);
    else place = start;
    colors.set(key, KEY_PALETTE[place] ?? OTHER_COLOR);
  }
  return colors;
}
