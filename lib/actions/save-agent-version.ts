"use server";
import { revalidatePath } from "next/cache";
import { defineAction } from "../http/server/action";
import { getDb } from "../db/server/db";
import { saveVersionInput } from "../agents/designer-schemas";
import { appendVersion } from "../agents/server/store";

/** Saves the editor's graph as a new immutable version on top of the version it was based on (409 when stale). */
export const saveAgentVersionAction = defineAction({
  name: "save-agent-version",
  permission: "agents:edit",
  input: saveVersionInput,
  async handler({ input, user }) {
    const saved = await appendVersion(getDb(), input.name, { baseVersion: input.baseVersion, graph: input.graph, message: input.message }, user);
    revalidatePath("/agents");
    return saved;
  },
});
