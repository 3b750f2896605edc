"use server";
import { revalidatePath } from "next/cache";
import { defineAction } from "../http/server/action";
import { workspacePolicySchema } from "../policy/schemas";
import { updateWorkspacePolicy } from "../policy/server/policy";
import { getDb } from "../db/server/db";

/** Admins replace the workspace approval policy (audited; new runs use it, running ones keep theirs). */
export const updateWorkspacePolicyAction = defineAction({
  name: "update-workspace-policy",
  permission: "policy:manage",
  input: workspacePolicySchema,
  async handler({ input, user }) {
    const updated = await updateWorkspacePolicy(getDb(), user, input);
    revalidatePath("/admin/policy");
    return updated;
  },
});
