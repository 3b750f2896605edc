import "server-only";
// The overview's evaluation scores as an operation: GET /api/evaluators/scores
// reads it (any signed-in role; scores are read like the dashboard's series).
import { getDb } from "../../db/server/db";
import { operation } from "../../http/server/operation";
import { scoreSeriesQuerySchema } from "../score-series";
import { readScoreSeries } from "./reads";

/** Each evaluator's mean score per bucket of the range, split by version or label. */
export const scoreSeriesOperation = operation({
  name: "evaluator-score-series",
  permission: "read",
  input: scoreSeriesQuerySchema,
  run: ({ input }) => readScoreSeries(getDb(), input),
});
