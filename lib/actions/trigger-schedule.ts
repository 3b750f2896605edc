"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { triggerScheduleOperation } from "../schedules/server/operations";

/** "Run now": one firing of a schedule at once (builders and admins). */
export const triggerScheduleAction = operationAction(triggerScheduleOperation, () => revalidatePath("/schedules"));
