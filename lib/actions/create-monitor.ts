"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { createMonitorOperation } from "../monitors/server/operations";

/** Creates a monitor (builders and admins): a threshold on a dashboard series that raises an alert. */
export const createMonitorAction = operationAction(createMonitorOperation, () => revalidatePath("/monitors"));
