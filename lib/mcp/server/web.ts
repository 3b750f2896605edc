import "server-only";
// The web process's wiring of the registry operations: its database, its
// configuration and its one Temporal client. Routes and actions call these.
import { getConfig } from "../../config/server/config";
import { getDb } from "../../db/server/db";
import { getTemporalClient } from "../../temporal/server/client";
import type { McpServerCreateInput, McpServerUpdate } from "../schemas";
import { createMcpServer, deleteMcpServer, getMcpServer, listMcpServers, updateMcpServer } from "./registry";
import { discoverTools } from "./discover";

type Actor = { id: string; role: string };

export const mcpServers = {
  list: () => listMcpServers(getDb()),
  get: (name: string) => getMcpServer(getDb(), name),
  create: (input: McpServerCreateInput, actor: Actor) => createMcpServer(getDb(), getConfig(), input, actor),
  update: (name: string, patch: McpServerUpdate, actor: Actor) => updateMcpServer(getDb(), getConfig(), name, patch, actor),
  remove: (name: string, actor: Actor) => deleteMcpServer(getDb(), name, actor),
  discover: (name: string, actor: Actor) => discoverTools({ db: getDb(), temporal: getTemporalClient(), taskQueue: getConfig().temporal.taskQueue }, name, actor),
};
