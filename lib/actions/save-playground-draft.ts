"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { savePlaygroundDraftOperation } from "../playground/server/operations";

/** Saves the playground's edited prompt, model, temperature and output cap as a draft version (not the default until promoted). */
export const savePlaygroundDraftAction = operationAction(savePlaygroundDraftOperation, () => revalidatePath("/agents"));
