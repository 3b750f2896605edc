"use server";
import { operationAction } from "../http/server/operation-adapters";
import { followUpOperation } from "../runs/server/run-operations";

/** Sends a follow-up message to a run (under its graph's follow-up policy while open, a continuation once completed; audited). */
export const sendFollowUpAction = operationAction(followUpOperation);
