"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { createApiKeyOperation } from "../api-keys/server/operations";

/** Creates an API key (personal; service for admins) and returns its token, shown this once; audited. */
export const createApiKeyAction = operationAction(createApiKeyOperation, () => {
  revalidatePath("/account");
  revalidatePath("/admin/api-keys");
});
