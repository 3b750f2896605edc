// GET /api/evaluators/scores?from=&to=&graph=&evaluator=&split=version|label – each online evaluator's mean score per
//   time bucket of the range (the overview's step), split by the runs' version or label; placed by when the runs ended.
import { operationQueryRoute } from "@/lib/http/server/operation-adapters";
import { scoreSeriesOperation } from "@/lib/online-eval/server/read-operations";

export const GET = operationQueryRoute(scoreSeriesOperation);
