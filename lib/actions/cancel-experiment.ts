"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { cancelExperimentOperation } from "../experiments/server/operations";

/** Cancels a running experiment and its in-flight item runs; audited as experiment.cancelled. */
export const cancelExperimentAction = operationAction(cancelExperimentOperation, () => revalidatePath("/experiments"));
