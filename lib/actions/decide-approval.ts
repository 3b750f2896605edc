"use server";
import { defineAction } from "../http/server/action";
import { getEngine } from "../engine/server/engine";
import { decideInputSchema } from "../inbox/schemas";
import { decideOne } from "../inbox/server/decide";

/** Approves (optionally with edited arguments) or rejects one pending call; the workflow records it before applying it. */
export const decideApprovalAction = defineAction({
  name: "decide-approval",
  permission: "approvals:decide",
  input: decideInputSchema,
  handler: ({ input, user }) => decideOne(getEngine(), user, input),
});
