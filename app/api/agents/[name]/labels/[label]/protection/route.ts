// POST /api/agents/:name/labels/:label/protection – { protected: boolean }: whether the label is moved only through an
//   approved request, on this graph (name "*": across the workspace; a graph's own word wins). Admins; audited
//   label.protection_set with the word it replaced.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { protectLabelOperation } from "@/lib/labels/server/operations";

export const POST = operationRoute(protectLabelOperation, { path: (params: { name: string; label: string }) => ({ name: params.name, label: params.label }) });
