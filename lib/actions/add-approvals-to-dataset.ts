"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { addApprovalsToDatasetOperation } from "../datasets/server/operations";

/** Adds one item per decided approval (expected call or negative example), as the dataset's next version; audited as dataset.items_added. */
export const addApprovalsToDatasetAction = operationAction(addApprovalsToDatasetOperation, () => revalidatePath("/datasets", "layout"));
