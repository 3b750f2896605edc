"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { archiveAgentOperation } from "../agents/server/operations";

/** Archives or unarchives an agent graph (its versions stay runnable and readable). */
export const archiveAgentAction = operationAction(archiveAgentOperation, () => revalidatePath("/agents"));
