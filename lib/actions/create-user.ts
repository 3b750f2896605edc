"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { createUserOperation } from "../users/server/operations";

/** Admins create an account (one-time password returned once) or invite an OAuth user; audited. */
export const createUserAction = operationAction(createUserOperation, () => revalidatePath("/admin/users"));
