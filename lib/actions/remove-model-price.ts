"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { removeModelPriceOperation } from "../pricing/server/prices";

/** Admins: removes a price an admin set; audited. */
export const removeModelPriceAction = operationAction(removeModelPriceOperation, () => revalidatePath("/admin/prices"));
