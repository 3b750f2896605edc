"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { updateViewOperation } from "../views/server/operations";

/** Renames one of your saved views or replaces its filters of the runs list; audited as view.updated. */
export const updateViewAction = operationAction(updateViewOperation, () => revalidatePath("/runs"));
