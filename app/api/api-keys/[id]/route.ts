// DELETE /api/api-keys/:id – revoke a key at once (yours; admins any; no body) → the key, `status: "revoked"`.
//   Its next request gets 401. Revoking it again changes nothing. Audited as api_key.revoked.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { revokeApiKeyOperation } from "@/lib/api-keys/server/operations";

export const DELETE = operationRoute(revokeApiKeyOperation, { path: (params: { id: string }) => ({ id: params.id }), body: false });
