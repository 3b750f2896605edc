// GET /api/webhooks/:webhookId/deliveries – the endpoint's newest 50 deliveries, newest first, each with its
//   outcome (started | duplicate | refused), reason, status and run id (everyone signed in).
import { operationQueryRoute } from "@/lib/http/server/operation-adapters";
import { listWebhookDeliveriesOperation } from "@/lib/webhooks/server/operations";

export const GET = operationQueryRoute(listWebhookDeliveriesOperation, (params: { webhookId: string }) => ({ id: params.webhookId }), (deliveries) => Response.json({ deliveries }, { headers: { "Cache-Control": "no-store" } }));
