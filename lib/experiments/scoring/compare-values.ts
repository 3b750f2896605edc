// Value comparison shared by the scorers: deep equality with key order ignored,
// subset matching for tool arguments, dotted paths into typed answers, and a
// short one-line rendering of a value for a score's detail.

/** Deep equality of JSON-like values; object key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((value, index) => deepEqual(value, b[index]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((key) => left[key] !== undefined);
  if (keys.length !== Object.keys(right).filter((key) => right[key] !== undefined).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && deepEqual(left[key], right[key]));
}

/**
 * Whether every field of `expected` is in `actual` with an equal value; nested
 * objects are compared the same way, arrays and scalars exactly.
 */
export function isSubset(expected: unknown, actual: unknown): boolean {
  if (expected && actual && typeof expected === "object" && typeof actual === "object" && !Array.isArray(expected) && !Array.isArray(actual)) {
    const have = actual as Record<string, unknown>;
    return Object.entries(expected as Record<string, unknown>).every(([key, value]) => Object.hasOwn(have, key) && isSubset(value, have[key]));
  }
  return deepEqual(expected, actual);
}

/** The value at a dotted path ("answer.items.0.id"); `found: false` when any step is missing. */
export function valueAtPath(value: unknown, path: string): { found: true; value: unknown } | { found: false } {
  let current: unknown = value;
  for (const step of path.split(".")) {
    if (Array.isArray(current) && /^\d+$/.test(step)) {
      const index = Number(step);
      if (index >= current.length) return { found: false };
      current = current[index];
    } else if (current && typeof current === "object" && !Array.isArray(current) && Object.hasOwn(current, step)) {
      current = (current as Record<string, unknown>)[step];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}

/** A value as short JSON for a detail line (long values cut with an ellipsis). */
export function brief(value: unknown, max = 80): string {
  let text: string;
  try {
    text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
