"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { removeSpendLimitOperation } from "../spend-limits/server/operations";

/** Removes a spend limit (admins; builders a graph's). */
export const removeSpendLimitAction = operationAction(removeSpendLimitOperation, () => revalidatePath("/spend-limits"));
