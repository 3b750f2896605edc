"use server";
import { revalidatePath } from "next/cache";
import { defineAction } from "../http/server/action";
import { getDb } from "../db/server/db";
import { importAgentInput } from "../agents/designer-schemas";
import { importAgent } from "../agents/server/store";

/** Creates an agent from exported JSON; every problem comes back with its path (422). */
export const importAgentAction = defineAction({
  name: "import-agent",
  permission: "agents:edit",
  input: importAgentInput,
  async handler({ input, user }) {
    const created = await importAgent(getDb(), input.name, input.description, input.json, user);
    revalidatePath("/agents");
    return created;
  },
});
