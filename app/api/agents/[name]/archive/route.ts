// POST /api/agents/:name/archive – archive the graph; the run launcher no longer offers it (no body) → { name, archived: true }.
//   The agents page's archive operation, with `archived` fixed by the path; builders and admins.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { archiveAgentOperation } from "@/lib/agents/server/operations";

export const POST = operationRoute(archiveAgentOperation, { path: (params: { name: string }) => ({ name: params.name, archived: true }), body: false });
