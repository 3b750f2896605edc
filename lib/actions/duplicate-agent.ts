"use server";
import { revalidatePath } from "next/cache";
import { defineAction } from "../http/server/action";
import { getDb } from "../db/server/db";
import { duplicateAgentInput } from "../agents/designer-schemas";
import { duplicateAgent } from "../agents/server/store";

/** Copies an agent graph's newest version into a new agent. */
export const duplicateAgentAction = defineAction({
  name: "duplicate-agent",
  permission: "agents:edit",
  input: duplicateAgentInput,
  async handler({ input, user }) {
    const created = await duplicateAgent(getDb(), input.name, input.newName, user);
    revalidatePath("/agents");
    return created;
  },
});
