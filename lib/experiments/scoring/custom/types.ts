import type { ObservedRun, Score, ScoredItem } from "../types";

/** A custom scorer: a plain function of the observed run and the dataset item. `scorer` is filled in by the registry. */
export type CustomScorer = (run: ObservedRun, item: ScoredItem) => Omit<Score, "scorer"> | Promise<Omit<Score, "scorer">>;
