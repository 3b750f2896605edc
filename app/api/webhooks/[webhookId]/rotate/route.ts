// POST /api/webhooks/:webhookId/rotate – a new signing secret (builders and admins) → 200 { webhook, secret },
//   shown this once; the old secret verifies nothing from then on.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { rotateWebhookSecretOperation } from "@/lib/webhooks/server/operations";

export const POST = operationRoute(rotateWebhookSecretOperation, { path: (params: { webhookId: string }) => ({ id: params.webhookId }), body: false, headers: { "Cache-Control": "no-store" } });
