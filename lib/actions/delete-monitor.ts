"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { deleteMonitorOperation } from "../monitors/server/operations";

/** Deletes a monitor (builders and admins); its alerts stay in the history. */
export const deleteMonitorAction = operationAction(deleteMonitorOperation, () => revalidatePath("/monitors"));
