"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { setUserDisabledOperation } from "../users/server/operations";

/** Admins disable an account (its sessions end at once) or enable it again; audited. */
export const setUserDisabledAction = operationAction(setUserDisabledOperation, () => revalidatePath("/admin/users"));
