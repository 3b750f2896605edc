"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { cancelLabelRequestOperation, decideLabelRequestOperation, protectLabelOperation, removeLabelOperation, setLabelOperation } from "../labels/server/operations";

/** Points a label at a version (a protected label's change becomes a request in the inbox). */
export const setLabelAction = operationAction(setLabelOperation, () => revalidatePath("/agents"));
export const removeLabelAction = operationAction(removeLabelOperation, () => revalidatePath("/agents"));
/** Admins: whether a label is protected on a graph or the workspace. */
export const protectLabelAction = operationAction(protectLabelOperation, () => revalidatePath("/agents"));
/** Approvers and admins decide a label request in the inbox (never their own). */
export const decideLabelRequestAction = operationAction(decideLabelRequestOperation, () => revalidatePath("/inbox"));
export const cancelLabelRequestAction = operationAction(cancelLabelRequestOperation, () => revalidatePath("/inbox"));
