// POST /api/users/:id/password-reset – a new one-time password for the user (admins
// only; shown once in the answer); their sessions end, their personal API keys are
// revoked (listed in the answer as revokedApiKeys) and they must choose a new one.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { resetUserPasswordOperation } from "@/lib/users/server/operations";

export const POST = operationRoute(resetUserPasswordOperation, { path: (params: { id: string }) => ({ userId: params.id }), body: false, headers: { "Cache-Control": "no-store" } });
