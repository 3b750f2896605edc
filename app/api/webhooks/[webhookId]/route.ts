// GET    /api/webhooks/:webhookId – one endpoint, never its secret (everyone signed in).
// PATCH  /api/webhooks/:webhookId – change it, e.g. { "enabled": false } (builders and admins; whoever changes an
//   endpoint owns the runs it starts from then on).
// DELETE /api/webhooks/:webhookId – delete it and its deliveries (its runs stay) → 200 { deleted: id }.
import { operationQueryRoute, operationRoute } from "@/lib/http/server/operation-adapters";
import { deleteWebhookOperation, getWebhookOperation, updateWebhookOperation } from "@/lib/webhooks/server/operations";

type Params = { webhookId: string };
const byId = (params: Params) => ({ id: params.webhookId });

export const GET = operationQueryRoute(getWebhookOperation, byId, (webhook) => Response.json({ webhook }, { headers: { "Cache-Control": "no-store" } }));

export const PATCH = operationRoute(updateWebhookOperation, { path: byId, bodyAs: "patch", respond: (webhook) => ({ webhook }) });

export const DELETE = operationRoute(deleteWebhookOperation, { path: byId, body: false });
