"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { savePlaygroundDraftOperation } from "../playground/server/operations";

/** Saves the playground's edited prompt, model and temperature as a new agent version (the designer's save operation). */
export const savePlaygroundDraftAction = operationAction(savePlaygroundDraftOperation, () => revalidatePath("/agents"));
