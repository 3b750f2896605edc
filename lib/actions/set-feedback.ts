"use server";
import { operationAction } from "../http/server/operation-adapters";
import { setFeedbackOperation } from "../feedback/server/operations";

/** Sets or changes your thumbs up/down (and comment) on a run or span; audited as feedback.set. */
export const setFeedbackAction = operationAction(setFeedbackOperation);
