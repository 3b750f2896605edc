"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { updateDatasetItemOperation } from "../datasets/server/operations";

/** Edits an item of the newest version, making the next one; audited as dataset.item_updated. */
export const updateDatasetItemAction = operationAction(updateDatasetItemOperation, () => revalidatePath("/datasets", "layout"));
