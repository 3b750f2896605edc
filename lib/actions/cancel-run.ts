"use server";
import { defineAction } from "../http/server/action";
import { runIdInputSchema } from "../runs/schemas";
import { cancelRun } from "../runs/server/run-operations";

/** Cancels a run, its in-flight work and its sub-agent conversations (audited). */
export const cancelRunAction = defineAction({
  name: "cancel-run",
  permission: "runs:launch",
  input: runIdInputSchema,
  handler: ({ input, user }) => cancelRun(input.runId, user),
});
