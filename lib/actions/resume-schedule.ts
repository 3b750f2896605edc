"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { resumeScheduleOperation } from "../schedules/server/operations";

/** Resumes a paused schedule (builders and admins), which the resumer now owns. */
export const resumeScheduleAction = operationAction(resumeScheduleOperation, () => revalidatePath("/schedules"));
