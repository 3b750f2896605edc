// GET /api/label-splits?graph=&from=&to= – every label with a traffic split (of one graph, or all), its two sides side
//   by side over the start range: runs, success rate, median latency, cost, mean score and a significance note.
import { operationQueryRoute } from "@/lib/http/server/operation-adapters";
import { compareLabelSplitsOperation } from "@/lib/label-splits/server/operations";

export const GET = operationQueryRoute(compareLabelSplitsOperation);
