// POST /api/api-keys – create a key ({ name, role, kind?: "personal" | "service", expiresAt? | expiresInDays? }):
//   201 with { key, token }; the token (`zap_…`) is shown this once. Personal keys for anyone signed in,
//   service keys for admins; the role no higher than yours (403 otherwise). Only with a signed-in session,
//   never with an API key. Audited as api_key.created.
// GET /api/api-keys – your keys (admins: every key), newest first, never a secret: { keys }.
// A program sends its key as `Authorization: Bearer zap_…` to any /api route (lib/http/server/api-route.ts).
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { createApiKeyOperation, listApiKeysOperation } from "@/lib/api-keys/server/operations";

export const GET = operationRoute(listApiKeysOperation, { body: false, headers: { "Cache-Control": "no-store" } });

export const POST = operationRoute(createApiKeyOperation, { status: 201, headers: { "Cache-Control": "no-store" } });
