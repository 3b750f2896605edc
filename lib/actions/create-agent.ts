"use server";
import { revalidatePath } from "next/cache";
import { defineAction } from "../http/server/action";
import { getDb } from "../db/server/db";
import { createAgentInput } from "../agents/designer-schemas";
import { createAgent, templateGraph } from "../agents/server/store";

/** Builders create an agent graph, blank or from a demo template, as version 1. */
export const createAgentAction = defineAction({
  name: "create-agent",
  permission: "agents:edit",
  input: createAgentInput,
  async handler({ input, user }) {
    const created = await createAgent(getDb(), input.name, input.description, templateGraph(input.template), user, input.template === "blank" ? "Created" : `From template ${input.template}`);
    revalidatePath("/agents");
    return created;
  },
});
