import "server-only";
// The operations on saved agent graphs, one each (schema, permission, act and
// audit in store.ts), from which the designer's server actions and the
// /api/agents routes are built.
import { getDb } from "../../db/server/db";
import { operation } from "../../http/server/operation";
import { archiveAgentInput, createAgentInput, duplicateAgentInput, importAgentInput, promoteVersionInput, restoreVersionInput, saveVersionInput } from "../designer-schemas";
import { appendVersion, createAgent, duplicateAgent, importAgent, promoteVersion, restoreVersion, setArchived, templateGraph } from "./store";

/** Save the editor's graph as a new version (the designer's action and `POST /api/agents/:name/versions`). */
export const saveVersionOperation = operation({
  name: "save-agent-version",
  permission: "agents:edit",
  input: saveVersionInput,
  run: ({ input, user }) => appendVersion(getDb(), input.name, { baseVersion: input.baseVersion, graph: input.graph, message: input.message }, user),
});

export const createAgentOperation = operation({
  name: "create-agent",
  permission: "agents:edit",
  input: createAgentInput,
  run: ({ input, user }) =>
    createAgent(getDb(), input.name, input.description, templateGraph(input.template), user, input.template === "blank" ? "Created" : `From template ${input.template}`),
});

export const importAgentOperation = operation({
  name: "import-agent",
  permission: "agents:edit",
  input: importAgentInput,
  run: ({ input, user }) => importAgent(getDb(), input.name, input.description, input.json, user),
});

export const duplicateAgentOperation = operation({
  name: "duplicate-agent",
  permission: "agents:edit",
  input: duplicateAgentInput,
  run: ({ input, user }) => duplicateAgent(getDb(), input.name, input.newName, user),
});

export const restoreVersionOperation = operation({
  name: "restore-agent-version",
  permission: "agents:edit",
  input: restoreVersionInput,
  run: ({ input, user }) => restoreVersion(getDb(), input.name, input.version, input.baseVersion, user),
});

/** Make a draft version the graph's default (the designer's history, `POST /api/agents/:name/versions/:version/promote`, `client.promoteAgentVersion`). */
export const promoteVersionOperation = operation({
  name: "promote-agent-version",
  permission: "agents:edit",
  input: promoteVersionInput,
  run: ({ input, user }) => promoteVersion(getDb(), input.name, input.version, user),
});

export const archiveAgentOperation = operation({
  name: "archive-agent",
  permission: "agents:edit",
  input: archiveAgentInput,
  async run({ input, user }) {
    await setArchived(getDb(), input.name, input.archived, user);
    return { name: input.name, archived: input.archived };
  },
});
