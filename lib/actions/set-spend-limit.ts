"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { setSpendLimitOperation } from "../spend-limits/server/operations";

/** Sets the spend limit of one scope and period (admins; builders a graph's). */
export const setSpendLimitAction = operationAction(setSpendLimitOperation, () => revalidatePath("/spend-limits"));
