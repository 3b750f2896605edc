// The comparison as the compare page hands it from the server to the browser
// (a prop of its client component, so it travels in the page's HTML). A
// 5,000-span pair has ~3,300 rows and as many step slots a side, most of them
// null (wire.ts): as objects that is ~190 KB of the HTML, escaped once more
// inside the flight payload; as tuples and a list of the steps present, ~45 KB.
// `GET /api/runs/compare` still answers RunComparison. Pure and browser-safe.
import type { DiffRow, RowStatus } from "./align";
import type { ComparedRun, RunComparison, StepView } from "./schemas";

const STATUSES: readonly RowStatus[] = ["equal", "changed", "only_a", "only_b"];

/** A row as [status index, a (−1 for none), b (−1 for none), ...changed fields]. */
type PackedRow = [number, number, number, ...string[]];

/** A run with its steps as [index, step] pairs of those present, and how many slots there are. */
type PackedRun = Omit<ComparedRun, "steps"> & { stepCount: number; present: [number, StepView][] };

export type PackedComparison = Omit<RunComparison, "rows" | "a" | "b"> & { rows: PackedRow[]; a: PackedRun; b: PackedRun };

function packRun({ steps, ...run }: ComparedRun): PackedRun {
  const present: [number, StepView][] = [];
  steps.forEach((step, i) => {
    if (step) present.push([i, step]);
  });
  return { ...run, stepCount: steps.length, present };
}

function unpackRun({ stepCount, present, ...run }: PackedRun): ComparedRun {
  const steps = new Array<StepView | null>(stepCount).fill(null);
  for (const [i, step] of present) steps[i] = step;
  return { ...run, steps };
}

export function packComparison({ rows, a, b, ...rest }: RunComparison): PackedComparison {
  return { ...rest, a: packRun(a), b: packRun(b), rows: rows.map((r) => [STATUSES.indexOf(r.status), r.a ?? -1, r.b ?? -1, ...r.changed]) };
}

export function unpackComparison({ rows, a, b, ...rest }: PackedComparison): RunComparison {
  const unpacked = rows.map(([status, ia, ib, ...changed]): DiffRow => ({ status: STATUSES[status]!, a: ia < 0 ? null : ia, b: ib < 0 ? null : ib, changed }));
  return { ...rest, a: unpackRun(a), b: unpackRun(b), rows: unpacked };
}
