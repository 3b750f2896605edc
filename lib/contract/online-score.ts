// Where an online evaluator's score shows on a run's trace: an attribute of the run's own span, one per evaluator,
// written with the scores (lib/run-ledger/evaluation-writes.ts) and read into words by the trace (lib/runs/span-attributes.ts).

/** The attribute of a run's own span that holds an online evaluator's mean score: `onlineScore:<evaluator name>`. */
export const ONLINE_SCORE_ATTRIBUTE_PREFIX = "onlineScore:";
