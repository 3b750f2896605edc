"use server";
import { revalidatePath } from "next/cache";
import { defineAction } from "../http/server/action";
import { getDb } from "../db/server/db";
import { archiveAgentInput } from "../agents/designer-schemas";
import { setArchived } from "../agents/server/store";

/** Archives or unarchives an agent graph (its versions stay runnable and readable). */
export const archiveAgentAction = defineAction({
  name: "archive-agent",
  permission: "agents:edit",
  input: archiveAgentInput,
  async handler({ input, user }) {
    await setArchived(getDb(), input.name, input.archived, user);
    revalidatePath("/agents");
    return { name: input.name, archived: input.archived };
  },
});
