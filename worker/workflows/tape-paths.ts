// A taped run's children inherit its tape, each with its own path in the run
// tree (lib/tapes/paths.ts): the parent's path, the child's logical name and
// its ordinal among the same-named children this execution started. Children
// of runs without a tape get nothing (their inputs are what they always were).
import type { TapeRef } from "../../lib/contract/workflow";
import { childTapePath, logicalChildName } from "../../lib/tapes/paths";
import type { RunState } from "./run-state";

/** Children started per logical name, per run (a WeakMap: the state of a finished execution is collected with it). */
const started = new WeakMap<RunState, Map<string, number>>();

/** `{ tape }` for the input of the child `childId` of the run `parentId`, or `{}` when the run has no tape. */
export function childTape(state: RunState, parentId: string, childId: string): { tape?: TapeRef } {
  const tape = state.patches.tape;
  if (!tape) return {};
  const name = logicalChildName(parentId, childId) ?? childId;
  const counts = started.get(state) ?? new Map<string, number>();
  started.set(state, counts);
  const ordinal = (counts.get(name) ?? 0) + 1;
  counts.set(name, ordinal);
  return { tape: { tapeId: tape.tapeId, path: childTapePath(tape.path, name, ordinal) } };
}
