"use server";
import { z } from "zod";
import { defineAction } from "../http/server/action";
import { launchOptions } from "../runs/server/launch";

/** What the run dialog offers for an agent: its versions (with placeholders) and example tasks. */
export const getLaunchOptionsAction = defineAction({
  name: "get-launch-options",
  permission: "runs:launch",
  input: z.object({ agent: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, "choose a saved agent") }),
  handler: ({ input }) => launchOptions(input.agent),
});
