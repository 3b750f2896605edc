// Aligns the steps of two runs: a Myers diff (fast-myers-diff, linear space)
// over the steps' keys (kind + place in the tree + name) pairs the steps both
// runs took; then each pair's fields are compared. Keys decide WHERE runs
// differ (a step inserted or removed), fields decide WHAT differs (changed
// arguments, another answer), so a changed tool argument is one "changed" row,
// not a removal and an insertion.
import { diff } from "fast-myers-diff";
import { orderParallel, stepKey, type RunStep } from "./steps";

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

/** The fields of two steps with the same key that differ (a field only one of them has differs too). */
export function changedFields(a: RunStep, b: RunStep): string[] {
  const names = [...Object.keys(a.fields)];
  for (const name of Object.keys(b.fields)) if (!(name in a.fields)) names.push(name);
  return names.filter((name) => a.fields[name] !== b.fields[name]);
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
  const counts: DiffCounts = { equal: 0, changed: 0, onlyA: 0, onlyB: 0 };
  const pair = (i: number, j: number) => {
    const changed = changedFields(a[i]!, b[j]!);
    if (changed.length === 0) counts.equal++;
    else counts.changed++;
    rows.push({ status: changed.length === 0 ? "equal" : "changed", a: i, b: j, changed });
  };
  let i = 0;
  let j = 0;
  // Each hunk replaces a[sx, ex) by b[sy, ey); between hunks the keys match one to one.
  for (const [sx, ex, , ey] of diff(keysA, keysB)) {
    while (i < sx) pair(i++, j++);
    for (; i < ex; i++) {
      rows.push({ status: "only_a", a: i, b: null, changed: [] });
      counts.onlyA++;
    }
    for (; j < ey; j++) {
      rows.push({ status: "only_b", a: null, b: j, changed: [] });
      counts.onlyB++;
    }
  }
  while (i < a.length && j < b.length) pair(i++, j++);
  const first = rows.findIndex((r) => r.status !== "equal");
  return { a, b, rows, firstDivergence: first === -1 ? null : first, counts };
}
