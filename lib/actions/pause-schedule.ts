"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { pauseScheduleOperation } from "../schedules/server/operations";

/** Pauses a schedule (builders and admins): no firing starts a run until it is resumed. */
export const pauseScheduleAction = operationAction(pauseScheduleOperation, () => revalidatePath("/schedules"));
