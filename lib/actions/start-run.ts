"use server";
import { operationAction } from "../http/server/operation-adapters";
import { startRunOperation } from "../runs/server/run-operations";

/** Builders and admins start a run of a saved agent version (audited by launchRun); the dialog then opens its page. */
export const startRunAction = operationAction(startRunOperation);
