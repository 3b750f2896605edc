"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { createViewOperation } from "../views/server/operations";

/** Saves a view of the runs list (a name and its filters); audited as view.created. */
export const createViewAction = operationAction(createViewOperation, () => revalidatePath("/runs"));
