// POST /api/agents/:name/unarchive – bring an archived graph back (no body) → { name, archived: false }.
//   The agents page's archive operation, with `archived` fixed by the path; builders and admins.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { archiveAgentOperation } from "@/lib/agents/server/operations";

export const POST = operationRoute(archiveAgentOperation, { path: (params: { name: string }) => ({ name: params.name, archived: false }), body: false });
