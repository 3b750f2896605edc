"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { revokeApiKeyOperation } from "../api-keys/server/operations";

/** Revokes an API key at once (your own; admins any); audited. */
export const revokeApiKeyAction = operationAction(revokeApiKeyOperation, () => {
  revalidatePath("/account");
  revalidatePath("/admin/api-keys");
});
