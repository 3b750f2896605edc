// Aligns the steps of two runs: a Myers diff (fast-myers-diff, linear space)
// over the steps' keys (kind + place in the tree + name) pairs the steps both
// runs took; then each pair's fields are compared. Keys decide WHERE runs
// differ (a step inserted or removed), fields decide WHAT differs (changed
// arguments, another answer), so a changed tool argument is one "changed" row,
// not a removal and an insertion.
import { diff } from "fast-myers-diff";
import { comparedText, orderParallel, stepKey, type RunStep } from "./steps";

export type RowStatus = "equal" | "changed" | "only_a" | "only_b";

export interface DiffRow {
  status: RowStatus;
  /** Index of the step in run A's (canonically ordered) steps, or null for a step only B took. */
  a: number | null;
  b: number | null;
  /** The fields that differ (changed rows only), in the step's field order. */
  changed: string[];
}

export interface DiffCounts {
  equal: number;
  changed: number;
  /** Steps only run A took (removed, reading A → B). */
  onlyA: number;
  /** Steps only run B took (added). */
  onlyB: number;
}

export interface Alignment {
  /** Both runs' steps as aligned: parallel stretches in canonical order (orderParallel). */
  a: RunStep[];
  b: RunStep[];
  rows: DiffRow[];
  /** Index in `rows` of the first row that is not equal; null when the runs took the same steps with the same contents. */
  firstDivergence: number | null;
  counts: DiffCounts;
}

/**
 * The fields of two steps with the same key that differ (a field only one of them has differs too), compared
 * as normalised (steps.ts `norm`: generated ids and timestamps do not count).
 */
export function changedFields(a: RunStep, b: RunStep): string[] {
  const names = [...Object.keys(a.fields)];
  for (const name of Object.keys(b.fields)) if (!(name in a.fields)) names.push(name);
  return names.filter((name) => comparedText(a, name) !== comparedText(b, name));
}

/** Aligns run A's steps with run B's (see the file comment). */
export function alignSteps(stepsA: readonly RunStep[], stepsB: readonly RunStep[]): Alignment {
  const a = orderParallel(stepsA);
  const b = orderParallel(stepsB);
  // Keys interned as numbers: the diff compares typed-array entries with ===, far cheaper than strings.
  const ids = new Map<string, number>();
  const intern = (steps: RunStep[]) => {
    const out = new Int32Array(steps.length);
    steps.forEach((s, i) => {
      const key = stepKey(s);
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = ids.size));
      out[i] = id;
    });
    return out;
  };
  const keysA = intern(a);
  const keysB = intern(b);

  const rows: DiffRow[] = [];
  const pair = (i: number, j: number) => {
    const changed = changedFields(a[i]!, b[j]!);
    rows.push({ status: changed.length === 0 ? "equal" : "changed", a: i, b: j, changed });
  };
  let i = 0;
  let j = 0;
  // Each hunk replaces a[sx, ex) by b[sy, ey); between hunks the keys match one to one.
  for (const [sx, ex, , ey] of diff(keysA, keysB)) {
    while (i < sx) pair(i++, j++);
    for (; i < ex; i++) {
      rows.push({ status: "only_a", a: i, b: null, changed: [] });
    }
    for (; j < ey; j++) {
      rows.push({ status: "only_b", a: null, b: j, changed: [] });
    }
  }
  while (i < a.length && j < b.length) pair(i++, j++);
  slideBlocks(rows, a, b);
  const counts: DiffCounts = { equal: 0, changed: 0, onlyA: 0, onlyB: 0 };
  for (const row of rows) counts[row.status === "equal" ? "equal" : row.status === "changed" ? "changed" : row.status === "only_a" ? "onlyA" : "onlyB"]++;
  const first = rows.findIndex((r) => r.status !== "equal");
  return { a, b, rows, firstDivergence: first === -1 ? null : first, counts };
}

const matched = (row: DiffRow | undefined): row is DiffRow & { a: number; b: number } => row !== undefined && row.a !== null && row.b !== null;

/**
 * Moves each block of steps only one run took along the steps around it when
 * that pairs more steps with equal contents. The diff knows only keys: with a
 * model call inserted before another model call, it may pair A's call with the
 * inserted one (changed) and call the original inserted, where pairing it with
 * its twin is equal. A block slides past a changed pair whose step has the
 * block's far end's key (the same sequence of keys either way).
 */
function slideBlocks(rows: DiffRow[], a: RunStep[], b: RunStep[]): void {
  const sameContent = (x: RunStep, y: RunStep) => changedFields(x, y).length === 0;
  for (let start = 0; start < rows.length; start++) {
    const status = rows[start]!.status;
    if (status !== "only_a" && status !== "only_b") continue;
    let end = start;
    while (end < rows.length && rows[end]!.status === status) end++;
    const side = status === "only_a" ? "a" : "b";
    const steps = side === "a" ? a : b;
    const other = side === "a" ? b : a;
    const index = (row: DiffRow) => (side === "a" ? row.a : row.b)!;
    const otherIndex = (row: DiffRow) => (side === "a" ? row.b : row.a)!;
    const only = (k: number): DiffRow => (side === "a" ? { status, a: k, b: null, changed: [] } : { status, a: null, b: k, changed: [] });
    const paired = (k: number, o: number): DiffRow => {
      const [x, y] = side === "a" ? [steps[k]!, other[o]!] : [other[o]!, steps[k]!];
      const changed = changedFields(x, y);
      return { status: changed.length === 0 ? "equal" : "changed", a: side === "a" ? k : o, b: side === "a" ? o : k, changed };
    };
    // Up: the pair before the block takes the block's last step instead.
    for (let before = rows[start - 1]; matched(before) && before.status === "changed"; before = rows[start - 1]) {
      const last = index(rows[end - 1]!);
      const own = index(before);
      if (stepKey(steps[own]!) !== stepKey(steps[last]!) || !sameContent(steps[last]!, other[otherIndex(before)]!)) break;
      const o = otherIndex(before);
      rows.splice(start - 1, end - start + 1, ...Array.from({ length: end - start }, (_, n) => only(own + n)), paired(last, o));
      start--;
      end--;
    }
    // Down: the pair after the block takes the block's first step instead.
    for (let after = rows[end]; matched(after) && after.status === "changed"; after = rows[end]) {
      const firstOwn = index(rows[start]!);
      const own = index(after);
      if (stepKey(steps[own]!) !== stepKey(steps[firstOwn]!) || !sameContent(steps[firstOwn]!, other[otherIndex(after)]!)) break;
      const o = otherIndex(after);
      rows.splice(start, end - start + 1, paired(firstOwn, o), ...Array.from({ length: end - start }, (_, n) => only(firstOwn + 1 + n)));
      start++;
      end++;
    }
    start = end - 1;
  }
}
