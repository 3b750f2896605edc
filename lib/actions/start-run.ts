"use server";
import { defineAction } from "../http/server/action";
import { launchRunSchema } from "../runs/schemas";
import { launchRun } from "../runs/server/launch";

/** Builders and admins start a run of a saved agent version (audited by launchRun); the dialog then opens its page. */
export const startRunAction = defineAction({
  name: "start-run",
  permission: "runs:launch",
  input: launchRunSchema,
  handler: ({ input, user }) => launchRun(input, user),
});
