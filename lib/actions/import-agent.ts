"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { importAgentOperation } from "../agents/server/operations";

/** Creates an agent from exported JSON; every problem comes back with its path (422). */
export const importAgentAction = operationAction(importAgentOperation, () => revalidatePath("/agents"));
