import "server-only";
// The web process's wiring of webhooks: its database, engine and key ring.
// Routes, actions and the page call these.
import { getDb } from "../../db/server/db";
import { getConfig } from "../../config/server/config";
import { getEngine } from "../../engine/server/engine";
import type { WebhookCreateInput, WebhookPatch } from "../schemas";
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, rotateWebhookSecret, updateWebhook, type WebhookDeps } from "./store";
import { receiveDelivery } from "./receive";

type Actor = { id: string };

const deps = (): WebhookDeps => ({ db: getDb(), config: getConfig() });

export const webhooks = {
  list: (graph?: string) => listWebhooks(deps(), graph),
  get: (id: string) => getWebhook(deps(), id),
  create: (input: WebhookCreateInput, actor: Actor) => createWebhook(deps(), input, actor),
  update: (id: string, patch: WebhookPatch, actor: Actor) => updateWebhook(deps(), id, patch, actor),
  rotate: (id: string, actor: Actor) => rotateWebhookSecret(deps(), id, actor),
  remove: (id: string, actor: Actor) => deleteWebhook(deps(), id, actor),
  deliveries: (id: string) => listDeliveries(deps(), id),
  receive: (endpointId: string, request: Request) => receiveDelivery({ db: getDb(), engine: getEngine(), config: getConfig() }, endpointId, request),
};
