"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { resetUserPasswordOperation } from "../users/server/operations";

/** Admins give a user a new one-time password (returned once; their sessions end, their personal API keys are revoked); audited. */
export const resetUserPasswordAction = operationAction(resetUserPasswordOperation, () => revalidatePath("/admin/users"));
