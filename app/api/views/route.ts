// GET /api/views – your saved views of the runs list, after the built-in ones ("stuck or burning"): { views }.
// POST /api/views – save one: { name, filters } (the runs list's filters without page/pageSize; unknown keys → 422)
//   → 201 the view. A name you already use → 409. Audited as view.created. Session or API key, any role.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { createViewOperation, listViewsOperation } from "@/lib/views/server/operations";

export const GET = operationRoute(listViewsOperation, { body: false, headers: { "Cache-Control": "no-store" } });

export const POST = operationRoute(createViewOperation, { status: 201 });
