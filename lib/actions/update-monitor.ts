"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { updateMonitorOperation } from "../monitors/server/operations";

/** Changes a monitor, enables or disables it (builders and admins); disabling a firing monitor resolves its alert. */
export const updateMonitorAction = operationAction(updateMonitorOperation, () => revalidatePath("/monitors"));
