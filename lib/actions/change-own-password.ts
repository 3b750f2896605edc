"use server";
import { operationAction } from "../http/server/operation-adapters";
import { changeOwnPasswordOperation } from "../users/server/operations";

/** Every user changes their own password; their other sessions end, this one continues. */
export const changeOwnPasswordAction = operationAction(changeOwnPasswordOperation);
