"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { startExperimentOperation } from "../experiments/server/operations";

/** Starts an experiment (a dataset version against graph versions); audited as experiment.started. */
export const startExperimentAction = operationAction(startExperimentOperation, () => revalidatePath("/experiments"));
