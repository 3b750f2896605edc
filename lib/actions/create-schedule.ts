"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { createScheduleOperation } from "../schedules/server/operations";

/** Creates a schedule (builders and admins) that starts runs of a saved agent graph, owned by its creator. */
export const createScheduleAction = operationAction(createScheduleOperation, () => revalidatePath("/schedules"));
