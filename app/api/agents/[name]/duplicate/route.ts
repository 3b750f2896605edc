// POST /api/agents/:name/duplicate – copy the graph's newest version under a new name:
//   { newName } → 201 with the copy's first version (the agents page's operation; builders and admins).
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { duplicateAgentOperation } from "@/lib/agents/server/operations";

export const POST = operationRoute(duplicateAgentOperation, { path: (params: { name: string }) => ({ name: params.name }), status: 201 });
