"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { removeDatasetItemsOperation } from "../datasets/server/operations";

/** Removes items from the newest version, making the next one; audited as dataset.item_removed. */
export const removeDatasetItemsAction = operationAction(removeDatasetItemsOperation, () => revalidatePath("/datasets", "layout"));
