"use server";
import { revalidatePath } from "next/cache";
import { defineAction } from "../http/server/action";
import { getDb } from "../db/server/db";
import { restoreVersionInput } from "../agents/designer-schemas";
import { restoreVersion } from "../agents/server/store";

/** Restores an old version as the newest one (refused like a save when the editor's base is stale). */
export const restoreAgentVersionAction = defineAction({
  name: "restore-agent-version",
  permission: "agents:edit",
  input: restoreVersionInput,
  async handler({ input, user }) {
    const restored = await restoreVersion(getDb(), input.name, input.version, input.baseVersion, user);
    revalidatePath("/agents");
    return restored;
  },
});
