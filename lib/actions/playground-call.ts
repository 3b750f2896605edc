"use server";
import { operationAction } from "../http/server/operation-adapters";
import { playgroundCallOperation } from "../playground/server/operations";

/** Runs one model call alone (no run, no tools executed; proposed calls returned); audited as playground.called. */
export const playgroundCallAction = operationAction(playgroundCallOperation);
