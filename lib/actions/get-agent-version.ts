"use server";
import { defineAction } from "../http/server/action";
import { getDb } from "../db/server/db";
import { versionRefInput, type StoredVersion } from "../agents/designer-schemas";
import { getVersion } from "../agents/server/store";

/** One saved version with its graph (for diff, export and restore previews). */
export const getAgentVersionAction = defineAction({
  name: "get-agent-version",
  permission: "read",
  input: versionRefInput,
  async handler({ input }): Promise<StoredVersion> {
    const { description: _d, archived: _a, ...version } = await getVersion(getDb(), input.name, input.version);
    return version;
  },
});
