"use server";
import { defineAction } from "../http/server/action";
import { getDb } from "../db/server/db";
import { agentRefInput } from "../agents/designer-schemas";
import { listVersions } from "../agents/server/store";

/** The version history of an agent graph, newest first, with run counts. */
export const listAgentVersionsAction = defineAction({
  name: "list-agent-versions",
  permission: "read",
  input: agentRefInput,
  handler: ({ input }) => listVersions(getDb(), input.name),
});
