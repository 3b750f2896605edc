"use server";
import { operationAction } from "../http/server/operation-adapters";
import { bulkDecideOperation } from "../inbox/server/decide";

/** Approves or rejects a selection of pending calls; reports each one's outcome. */
export const bulkDecideApprovalsAction = operationAction(bulkDecideOperation);

