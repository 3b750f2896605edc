"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { liftSignInBlockOperation } from "../users/server/operations";

/** Admins lift the sign-in blocks of an account (each blocked address, the account's guard); audited. */
export const liftSignInBlockAction = operationAction(liftSignInBlockOperation, () => revalidatePath("/admin/users"));
