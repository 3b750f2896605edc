import "server-only";
// The workspace policy's one mutation (schema, permission, act and audit in
// policy.ts), from which the admin page's action and `PUT /api/policy` are built.
import { getDb } from "../../db/server/db";
import { operation } from "../../http/server/operation";
import { workspacePolicySchema } from "../schemas";
import { updateWorkspacePolicy } from "./policy";

export const updateWorkspacePolicyOperation = operation({
  name: "update-workspace-policy",
  permission: "policy:manage",
  input: workspacePolicySchema,
  run: ({ input, user }) => updateWorkspacePolicy(getDb(), user, input),
});
