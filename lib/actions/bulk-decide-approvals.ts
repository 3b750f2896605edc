"use server";
import { defineAction } from "../http/server/action";
import { getEngine } from "../engine/server/engine";
import { bulkDecideInputSchema } from "../inbox/schemas";
import { decideMany } from "../inbox/server/decide";

/** Approves or rejects a selection of pending calls; reports each one's outcome. */
export const bulkDecideApprovalsAction = defineAction({
  name: "bulk-decide-approvals",
  permission: "approvals:decide",
  input: bulkDecideInputSchema,
  handler: ({ input, user }) => decideMany(getEngine(), user, input),
});
