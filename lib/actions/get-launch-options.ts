"use server";
import { defineAction } from "../http/server/action";
import { launchOptionsInputSchema } from "../runs/schemas";
import { launchOptions } from "../runs/server/launch";

/** What the run dialog offers for a saved agent graph: its versions (with placeholders) and example tasks. */
export const getLaunchOptionsAction = defineAction({
  name: "get-launch-options",
  permission: "runs:launch",
  input: launchOptionsInputSchema,
  handler: ({ input }) => launchOptions(input.graph),
});
