// GET    /api/spend-limits/:limitId – one limit with its scope's spend in the current window (everyone signed in).
// DELETE /api/spend-limits/:limitId – remove it (admins; builders a graph's) → 200 { removed: id }.
import { operationQueryRoute, operationRoute } from "@/lib/http/server/operation-adapters";
import { getSpendLimitOperation, removeSpendLimitOperation } from "@/lib/spend-limits/server/operations";

type Params = { limitId: string };
const byId = (params: Params) => ({ id: params.limitId });

export const GET = operationQueryRoute(getSpendLimitOperation, byId, (limit) => Response.json({ limit }, { headers: { "Cache-Control": "no-store" } }));

export const DELETE = operationRoute(removeSpendLimitOperation, { path: byId, body: false });
