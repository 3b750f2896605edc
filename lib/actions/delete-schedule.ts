"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { deleteScheduleOperation } from "../schedules/server/operations";

/** Deletes a schedule and its Temporal Schedule (builders and admins); its runs stay. */
export const deleteScheduleAction = operationAction(deleteScheduleOperation, () => revalidatePath("/schedules"));
