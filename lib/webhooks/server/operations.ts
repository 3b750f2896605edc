import "server-only";
// The management operations on webhook endpoints, one each (act and audit in
// store.ts), from which the server actions and the /api/webhooks routes are
// built. An endpoint starts runs as its owner, so managing one takes the
// permission that launches runs (builders and admins); everyone signed in reads.
import { operation } from "../../http/server/operation";
import { listWebhooksInput, updateWebhookInput, webhookCreateSchema, webhookRefInput } from "../schemas";
import { webhooks } from "./web";

export const listWebhooksOperation = operation({
  name: "list-webhooks",
  permission: "read",
  input: listWebhooksInput,
  run: ({ input }) => webhooks.list(input.graph),
});

export const getWebhookOperation = operation({
  name: "get-webhook",
  permission: "read",
  input: webhookRefInput,
  run: ({ input }) => webhooks.get(input.id),
});

export const listWebhookDeliveriesOperation = operation({
  name: "list-webhook-deliveries",
  permission: "read",
  input: webhookRefInput,
  run: ({ input }) => webhooks.deliveries(input.id),
});

export const createWebhookOperation = operation({
  name: "create-webhook",
  permission: "runs:launch",
  input: webhookCreateSchema,
  run: ({ input, user }) => webhooks.create(input, user),
});

export const updateWebhookOperation = operation({
  name: "update-webhook",
  permission: "runs:launch",
  input: updateWebhookInput,
  run: ({ input, user }) => webhooks.update(input.id, input.patch, user),
});

export const rotateWebhookSecretOperation = operation({
  name: "rotate-webhook-secret",
  permission: "runs:launch",
  input: webhookRefInput,
  run: ({ input, user }) => webhooks.rotate(input.id, user),
});

export const deleteWebhookOperation = operation({
  name: "delete-webhook",
  permission: "runs:launch",
  input: webhookRefInput,
  run: ({ input, user }) => webhooks.remove(input.id, user),
});
