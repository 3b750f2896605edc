"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { updateWorkspacePolicyOperation } from "../policy/server/operations";

/** Admins replace the workspace approval policy (audited; new runs use it, running ones keep theirs). */
export const updateWorkspacePolicyAction = operationAction(updateWorkspacePolicyOperation, () => revalidatePath("/admin/policy"));
