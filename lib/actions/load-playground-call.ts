"use server";
import { operationAction } from "../http/server/operation-adapters";
import { loadPlaygroundOperation } from "../playground/server/operations";

/** The recorded model call of a span, ready for the playground (read). */
export const loadPlaygroundCallAction = operationAction(loadPlaygroundOperation);
