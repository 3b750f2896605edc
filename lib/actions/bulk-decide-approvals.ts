"use server";
import { operationAction } from "../http/server/operation-adapters";
import { bulkDecideOperation } from "../inbox/server/decide";
import { runDecisionsOperation } from "../inbox/server/decisions";

/** Approves or rejects a selection of pending calls; reports each one's outcome. */
export const bulkDecideApprovalsAction = operationAction(bulkDecideOperation);

/** A run's decided calls with each tool's result after the decision (the inbox's and the conversation's "result after approval"). */
export const runDecisionsAction = operationAction(runDecisionsOperation);
