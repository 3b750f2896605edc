"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { changeUserRoleOperation } from "../users/server/operations";

/** Admins change another user's role (audited; the last admin cannot be demoted). */
export const changeUserRoleAction = operationAction(changeUserRoleOperation, () => revalidatePath("/admin/users"));
