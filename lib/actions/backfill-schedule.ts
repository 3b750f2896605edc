"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { backfillScheduleOperation } from "../schedules/server/operations";

/** Starts the firings of a past range of a schedule now (builders and admins; at most 20). */
export const backfillScheduleAction = operationAction(backfillScheduleOperation, () => revalidatePath("/schedules"));
