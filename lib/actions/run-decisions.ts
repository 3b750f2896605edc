"use server";
import { operationAction } from "../http/server/operation-adapters";
import { runDecisionsOperation } from "../inbox/server/decisions";

/** A run's decided calls with each tool's result after the decision (the inbox's and the conversation's "result after approval"). */
export const runDecisionsAction = operationAction(runDecisionsOperation);
