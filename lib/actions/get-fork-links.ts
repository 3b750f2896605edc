"use server";
import { defineAction } from "../http/server/action";
import { runIdInputSchema } from "../runs/schemas";
import { forkLinks } from "../forks/server/fork-links";

/** The run header's fork links: "Fork of … at …" and the run's own forks. */
export const getForkLinksAction = defineAction({
  name: "get-fork-links",
  permission: "read",
  input: runIdInputSchema,
  handler: ({ input }) => forkLinks(input.runId),
});
