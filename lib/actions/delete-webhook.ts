"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { deleteWebhookOperation } from "../webhooks/server/operations";

/** Deletes a webhook endpoint and its deliveries (builders and admins). */
export const deleteWebhookAction = operationAction(deleteWebhookOperation, () => revalidatePath("/webhooks"));
