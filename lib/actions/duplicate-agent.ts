"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { duplicateAgentOperation } from "../agents/server/operations";

/** Copies an agent graph's newest version into a new agent. */
export const duplicateAgentAction = operationAction(duplicateAgentOperation, () => revalidatePath("/agents"));
