// "Recorded history only" (issue 36 §2): whether a run stood on what really
// happened. A fork's edited tool result or model output, or an imported item's
// tape entry marked edited, replays like a recording but was written by a
// person; the other scorers judge what the agent did with it, and this one says
// whether there was anything invented to judge on. Beside them in an
// experiment, its mean is the share of items scored on recorded (or live)
// steps alone, and its detail names each written step, who wrote it and when.
import type { ObservedRun, Score } from "./types";

/** How many edited steps the detail names before it says "and N more". */
const NAMED_STEPS = 3;

export function scoreRecorded(run: ObservedRun): Score {
  const edited = run.editedSteps;
  if (edited.length === 0) return { scorer: "recorded", value: 1, pass: true, detail: "every step was recorded or ran live" };
  const named = edited.slice(0, NAMED_STEPS).join("; ");
  const more = edited.length > NAMED_STEPS ? `; and ${edited.length - NAMED_STEPS} more` : "";
  return { scorer: "recorded", value: 0, pass: false, detail: `${edited.length} edited ${edited.length === 1 ? "step" : "steps"}, not recordings: ${named}${more}` };
}
