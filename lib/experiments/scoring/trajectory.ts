// Trajectory scorer: the run's tool calls (the whole run tree, in order) against
// the item's expected calls, and against calls that must not happen (rejections
// recorded as negative examples).
//   strict    — same sequence: matched = longest common subsequence, so a
//               missing, extra or reordered call each cost one match.
//   unordered — same multiset: matched = a maximum matching between expected
//               and observed calls (not greedy: with subset arguments one
//               observed call can fit several expected ones).
// value = matched / max(expected, observed) so extra calls lower it too;
// pass = every expected call matched and no extra call. A forbidden call fails
// the score (value 0) and names the approver's reason.
import type { ObservedRun, Score, ScoredItem } from "./types";
import { brief, deepEqual, isSubset } from "./compare-values";

type ArgumentsMode = "exact" | "subset" | "ignore";
interface Call {
  tool: string;
  arguments: Record<string, unknown>;
}

export function callMatches(expected: Call, observed: Call, mode: ArgumentsMode): boolean {
  if (expected.tool !== observed.tool) return false;
  if (mode === "ignore") return true;
  if (mode === "subset") return isSubset(expected.arguments, observed.arguments);
  return deepEqual(expected.arguments, observed.arguments);
}

function describe(call: Call, mode: ArgumentsMode): string {
  return mode === "ignore" ? call.tool : `${call.tool}(${brief(call.arguments, 60)})`;
}

/** Whether expected[i] matches observed[j], for every pair (row-major). */
function matchGrid(expected: Call[], observed: Call[], mode: ArgumentsMode): boolean[] {
  return expected.flatMap((want) => observed.map((got) => callMatches(want, got, mode)));
}

/** Indexes of a longest common subsequence, as pairs (expected index, observed index). */
export function lcsPairs(expected: Call[], observed: Call[], mode: ArgumentsMode): [number, number][] {
  const rows = expected.length;
  const cols = observed.length;
  const match = matchGrid(expected, observed, mode);
  const matches = (i: number, j: number) => match[i * cols + j] === true;
  // table[i][j] = LCS length of expected[i..] and observed[j..], flattened with width cols + 1.
  const table = new Array<number>((rows + 1) * (cols + 1)).fill(0);
  const at = (i: number, j: number) => table[i * (cols + 1) + j] ?? 0;
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = cols - 1; j >= 0; j--) {
      table[i * (cols + 1) + j] = matches(i, j) ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < rows && j < cols) {
    if (matches(i, j) && at(i, j) === at(i + 1, j + 1) + 1) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (at(i + 1, j) >= at(i, j + 1)) {
      i++;
    } else {
      j++;
    }
  }
  return pairs;
}

/** A maximum bipartite matching between expected and observed calls (augmenting paths; trajectories are short). */
export function multisetPairs(expected: Call[], observed: Call[], mode: ArgumentsMode): [number, number][] {
  const cols = observed.length;
  const match = matchGrid(expected, observed, mode);
  const matchOfObserved = new Array<number>(cols).fill(-1);
  const tryAssign = (e: number, seen: boolean[]): boolean => {
    for (let o = 0; o < cols; o++) {
      if (seen[o] || match[e * cols + o] !== true) continue;
      seen[o] = true;
      const holder = matchOfObserved[o] ?? -1;
      if (holder === -1 || tryAssign(holder, seen)) {
        matchOfObserved[o] = e;
        return true;
      }
    }
    return false;
  };
  for (let e = 0; e < expected.length; e++) tryAssign(e, new Array<boolean>(cols).fill(false));
  const pairs: [number, number][] = [];
  matchOfObserved.forEach((e, o) => {
    if (e !== -1) pairs.push([e, o]);
  });
  return pairs.sort((a, b) => a[0] - b[0]);
}

export function scoreTrajectory(run: ObservedRun, item: ScoredItem, config: { order: "strict" | "unordered"; arguments: ArgumentsMode }): Score {
  const scorer = `trajectory:${config.order}/${config.arguments}`;
  const expected = item.expected.trajectory;
  const negatives = item.expected.negative ?? [];
  const observed: Call[] = run.toolCalls.map((call) => ({ tool: call.tool, arguments: call.arguments }));
  if (expected === undefined && negatives.length === 0) return { scorer, value: 0, pass: null, detail: "the item has no expected trajectory" };

  // Forbidden calls first: whatever else matched, one of these fails the score.
  const hits = negatives.filter((negative) => observed.some((call) => callMatches(negative, call, config.arguments)));
  if (hits.length > 0) {
    const reasons = hits.map((hit) => `called ${describe(hit, config.arguments)}, which must not happen: ${hit.reason || "(no reason recorded)"}`);
    return { scorer, value: 0, pass: false, detail: reasons.join("; ") };
  }
  if (expected === undefined) return { scorer, value: 1, pass: true, detail: `none of the ${negatives.length} forbidden call(s) happened` };
  if (expected.length === 0 && observed.length === 0) return { scorer, value: 1, pass: true, detail: "no tool calls, as expected" };

  const pairs = config.order === "strict" ? lcsPairs(expected, observed, config.arguments) : multisetPairs(expected, observed, config.arguments);
  const matchedExpected = new Set(pairs.map(([e]) => e));
  const matchedObserved = new Set(pairs.map(([, o]) => o));
  const missing = expected.filter((_, index) => !matchedExpected.has(index));
  const extra = observed.filter((_, index) => !matchedObserved.has(index));
  const value = pairs.length / Math.max(expected.length, observed.length);
  const pass = missing.length === 0 && extra.length === 0;
  if (pass) return { scorer, value: 1, pass: true, detail: `all ${expected.length} expected call(s) matched${config.order === "strict" ? " in order" : ""}` };

  const parts = [`${pairs.length} of ${expected.length} expected call(s) matched${config.order === "strict" ? " in order" : ""}`];
  // A strict mismatch that an unordered match would pass is worth naming as such.
  if (config.order === "strict" && expected.length === observed.length && multisetPairs(expected, observed, config.arguments).length === expected.length) parts.push("same calls in another order");
  if (missing.length > 0) parts.push(`missing: ${missing.slice(0, 3).map((call) => describe(call, config.arguments)).join(", ")}${missing.length > 3 ? ` and ${missing.length - 3} more` : ""}`);
  if (extra.length > 0) parts.push(`extra: ${extra.slice(0, 3).map((call) => describe(call, config.arguments)).join(", ")}${extra.length > 3 ? ` and ${extra.length - 3} more` : ""}`);
  return { scorer, value, pass, detail: parts.join("; ") };
}
