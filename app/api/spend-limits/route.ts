// GET /api/spend-limits – every spend limit with its scope's spend in the current UTC day or month (everyone signed in).
// POST /api/spend-limits – set the limit of one scope and period, replacing the one it had:
//   { scope: "workspace" | "graph" | "user" | "api_key", scopeId? (graph name, user id, key id), period: "day" | "month", amountUsd }
//   → 200 { limit }. Admins set every scope, builders graphs only (403 otherwise); 422 naming the field.
import { operationQueryRoute, operationRoute } from "@/lib/http/server/operation-adapters";
import { listSpendLimitsOperation, setSpendLimitOperation } from "@/lib/spend-limits/server/operations";

export const GET = operationQueryRoute(listSpendLimitsOperation, undefined, (limits) => Response.json({ limits }, { headers: { "Cache-Control": "no-store" } }));

export const POST = operationRoute(setSpendLimitOperation, { respond: (limit) => ({ limit }) });
