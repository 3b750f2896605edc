// POST /api/agents/import – create a saved agent graph from an exported file:
//   { name, description?, json } → 201 with its first version; every problem in the graph is a 422 issue with its path
//   (the agents page's operation; builders and admins). "import" is not a route under /api/agents/:name.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { GRAPH_MAX_BODY_BYTES } from "@/lib/http/server/request-guard";
import { importAgentOperation } from "@/lib/agents/server/operations";

export const POST = operationRoute(importAgentOperation, { status: 201, maxBodyBytes: GRAPH_MAX_BODY_BYTES });
