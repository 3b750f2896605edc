"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { createWebhookOperation } from "../webhooks/server/operations";

/** Creates a webhook endpoint (builders and admins) that starts runs of a saved graph as its creator; answers its secret once. */
export const createWebhookAction = operationAction(createWebhookOperation, () => revalidatePath("/webhooks"));
