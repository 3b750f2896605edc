"use server";
import { operationAction } from "../http/server/operation-adapters";
import { removeFeedbackOperation } from "../feedback/server/operations";

/** Removes your feedback on a run or span; audited as feedback.removed. */
export const removeFeedbackAction = operationAction(removeFeedbackOperation);
