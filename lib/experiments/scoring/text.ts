// Scorers on the final text answer: exact match and containment.
import type { ObservedRun, Score, ScoredItem } from "./types";
import { brief } from "./compare-values";

/** The run's text answer, or why there is none. */
function answerText(run: ObservedRun): string | null {
  if (run.output !== null) return run.output;
  if (run.outputData !== undefined && run.outputData !== null) return JSON.stringify(run.outputData);
  return null;
}

function noAnswer(scorer: string, run: ObservedRun): Score {
  const why = run.errorReason ? `the run gave no answer (${run.status}: ${run.errorReason})` : `the run gave no answer (${run.status})`;
  return { scorer, value: 0, pass: false, detail: why };
}

/** Final text equals expected.output, both trimmed; case-sensitive unless configured otherwise. */
export function scoreExact(run: ObservedRun, item: ScoredItem, options: { caseSensitive?: boolean }): Score {
  const scorer = "exact";
  const expected = item.expected.output;
  if (expected === undefined || expected === null) return { scorer, value: 0, pass: null, detail: "the item has no expected output" };
  const actual = answerText(run);
  if (actual === null) return noAnswer(scorer, run);
  const fold = (text: string) => (options.caseSensitive === false ? text.trim().toLowerCase() : text.trim());
  const equal = fold(actual) === fold(expected);
  return { scorer, value: equal ? 1 : 0, pass: equal, detail: equal ? "output equals the expected output" : `expected ${brief(expected.trim())}, got ${brief(actual.trim())}` };
}

/** The configured text (default: expected.output) appears in the answer; case and runs of whitespace are ignored. */
export function scoreContains(run: ObservedRun, item: ScoredItem, options: { text?: string }): Score {
  const scorer = "contains";
  const needle = options.text ?? item.expected.output ?? null;
  if (needle === null || needle.trim() === "") return { scorer, value: 0, pass: null, detail: "nothing to look for: no text configured and the item has no expected output" };
  const actual = answerText(run);
  if (actual === null) return noAnswer(scorer, run);
  const fold = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();
  const found = fold(actual).includes(fold(needle));
  return { scorer, value: found ? 1 : 0, pass: found, detail: found ? `output contains ${brief(needle.trim())}` : `output does not contain ${brief(needle.trim())}` };
}
