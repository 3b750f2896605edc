"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { deleteViewOperation } from "../views/server/operations";

/** Deletes one of your saved views of the runs list; audited as view.deleted. */
export const deleteViewAction = operationAction(deleteViewOperation, () => revalidatePath("/runs"));
