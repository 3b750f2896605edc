"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { rotateWebhookSecretOperation } from "../webhooks/server/operations";

/** Rotates a webhook endpoint's signing secret (builders and admins); answers the new one once. */
export const rotateWebhookSecretAction = operationAction(rotateWebhookSecretOperation, () => revalidatePath("/webhooks"));
