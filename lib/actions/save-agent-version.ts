"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { saveVersionOperation } from "../agents/server/operations";

/** Saves the editor's graph as a new immutable version on top of the version it was based on (409 when stale). */
export const saveAgentVersionAction = operationAction(saveVersionOperation, () => revalidatePath("/agents"));
