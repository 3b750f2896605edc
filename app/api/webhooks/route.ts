// GET  /api/webhooks[?graph=<name>] – every inbound webhook endpoint, never a secret (everyone signed in).
// POST /api/webhooks – create one (builders and admins): { name, graph, version?, mapping?, enabled?, rateLimitPerMinute? }
//   → 201 { webhook, secret } (the secret is shown this once); 422 naming the field.
import { operationQueryRoute, operationRoute } from "@/lib/http/server/operation-adapters";
import { createWebhookOperation, listWebhooksOperation } from "@/lib/webhooks/server/operations";

export const GET = operationQueryRoute(listWebhooksOperation, undefined, (webhooks) => Response.json({ webhooks }, { headers: { "Cache-Control": "no-store" } }));

export const POST = operationRoute(createWebhookOperation, { status: 201, headers: { "Cache-Control": "no-store" } });
