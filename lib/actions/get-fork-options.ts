"use server";
import { defineAction } from "../http/server/action";
import { forkOptionsInputSchema } from "../forks/schemas";
import { forkOptions } from "../forks/server/fork-options";

/** What the fork dialog offers for a step: the graph's versions, the agent's prompt, the step's recorded result. */
export const getForkOptionsAction = defineAction({
  name: "get-fork-options",
  permission: "runs:launch",
  input: forkOptionsInputSchema,
  handler: ({ input }) => forkOptions(input.runId, input.spanId),
});
