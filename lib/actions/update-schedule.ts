"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { updateScheduleOperation } from "../schedules/server/operations";

/** Changes a schedule (builders and admins); whoever changes it owns its runs from then on. */
export const updateScheduleAction = operationAction(updateScheduleOperation, () => revalidatePath("/schedules"));
