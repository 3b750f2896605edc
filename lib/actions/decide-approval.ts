"use server";
import { operationAction } from "../http/server/operation-adapters";
import { decideOperation } from "../inbox/server/decide";

/** Approves (optionally with edited arguments) or rejects one pending call; the workflow records it before applying it. */
export const decideApprovalAction = operationAction(decideOperation);
