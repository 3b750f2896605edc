"use server";
import { operationAction } from "../http/server/operation-adapters";
import { listFeedbackOperation } from "../feedback/server/operations";

/** The feedback on a run and its spans (a root run: its whole tree). */
export const listFeedbackAction = operationAction(listFeedbackOperation);
