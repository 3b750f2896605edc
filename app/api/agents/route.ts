// POST /api/agents – create a saved agent graph, blank or from a demo template:
//   { name, description?, template? } → 201 with its first version (the agents page's operation; builders and admins).
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { createAgentOperation } from "@/lib/agents/server/operations";

export const POST = operationRoute(createAgentOperation, { status: 201 });
