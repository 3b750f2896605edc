"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { archiveDatasetOperation } from "../datasets/server/operations";

/** Archives a dataset: readable and exportable, no longer changed; audited as dataset.archived. */
export const archiveDatasetAction = operationAction(archiveDatasetOperation, () => revalidatePath("/datasets", "layout"));
