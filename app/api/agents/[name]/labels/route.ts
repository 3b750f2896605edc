// GET /api/agents/:name/labels – the graph's version labels (version, split, protected, pending request)
//   and the label names protected on it. Everyone who reads.
import { operationQueryRoute } from "@/lib/http/server/operation-adapters";
import { listLabelsOperation } from "@/lib/labels/server/operations";

export const GET = operationQueryRoute(listLabelsOperation, (params: { name: string }) => ({ name: params.name }));
