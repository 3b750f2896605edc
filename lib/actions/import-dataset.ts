"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { importDatasetOperation } from "../datasets/server/operations";

/** Imports a CSV or JSONL file as the dataset's next version (nothing when a line fails, unless skipInvalid); audited as dataset.imported. */
export const importDatasetAction = operationAction(importDatasetOperation, () => revalidatePath("/datasets", "layout"));
