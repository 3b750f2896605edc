"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { addRunsToDatasetOperation } from "../datasets/server/operations";

/** Adds one item per finished run to a dataset (or a new one), as its next version; audited as dataset.items_added. */
export const addRunsToDatasetAction = operationAction(addRunsToDatasetOperation, () => revalidatePath("/datasets", "layout"));
