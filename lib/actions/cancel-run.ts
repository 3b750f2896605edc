"use server";
import { operationAction } from "../http/server/operation-adapters";
import { cancelRunOperation } from "../runs/server/run-operations";

/** Cancels a run, its in-flight work and its sub-agent conversations (audited). */
export const cancelRunAction = operationAction(cancelRunOperation);
