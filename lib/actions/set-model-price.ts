"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { setModelPriceOperation } from "../pricing/server/prices";

/** Admins: a model's token prices from a time on; audited. */
export const setModelPriceAction = operationAction(setModelPriceOperation, () => revalidatePath("/admin/prices"));
