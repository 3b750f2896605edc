"use server";
import { defineAction } from "../http/server/action";
import { followUpSchema } from "../runs/schemas";
import { sendFollowUp } from "../runs/server/run-operations";

/** Sends a follow-up message to a run (a signal while open, a continuation once completed; audited). */
export const sendFollowUpAction = defineAction({
  name: "send-follow-up",
  permission: "runs:launch",
  input: followUpSchema,
  handler: ({ input, user }) => sendFollowUp(input.runId, input.content, user),
});
