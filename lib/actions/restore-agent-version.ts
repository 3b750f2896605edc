"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { restoreVersionOperation } from "../agents/server/operations";

/** Restores an old version as the newest one (refused like a save when the editor's base is stale). */
export const restoreAgentVersionAction = operationAction(restoreVersionOperation, () => revalidatePath("/agents"));
