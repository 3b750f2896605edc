"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { updateWebhookOperation } from "../webhooks/server/operations";

/** Changes a webhook endpoint's mapping, version, rate or enabled state (builders and admins). */
export const updateWebhookAction = operationAction(updateWebhookOperation, () => revalidatePath("/webhooks"));
