"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { createDatasetOperation } from "../datasets/server/operations";

/** Creates an empty dataset (a unique name); audited as dataset.created. */
export const createDatasetAction = operationAction(createDatasetOperation, () => revalidatePath("/datasets", "layout"));
