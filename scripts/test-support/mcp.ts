// MCP servers for tests: graphs name registered servers, so tests register
// them in their database through the registry (the same checks as the admin
// page), or write a row directly to show what the worker does with one the
// registry would have refused.
import type { Db } from "../../lib/db/prisma";
import type { AppConfig } from "../../lib/config/env";
import { createMcpServer, updateMcpServer } from "../../lib/mcp/server/registry";
import type { McpServerCreateInput, McpServerUpdate, McpServerView } from "../../lib/mcp/schemas";
import { DEMO_MCP_ARGV } from "../../lib/mcp/schemas";
import { sealSecrets } from "../../lib/mcp/stored";

/** The bundled demo server's stdio transport, as the default allowlist accepts it. */
export const DEMO_STDIO = (() => {
  const [command, ...args] = DEMO_MCP_ARGV;
  return { type: "stdio" as const, command, args };
})();

async function adminId(db: Db): Promise<string> {
  const admin = await db.user.findFirst({ where: { role: "admin" }, select: { id: true } });
  if (!admin) throw new Error("the test database has no admin user (seed it first)");
  return admin.id;
}

/** Registers a server as the seeded admin would. */
export async function registerMcpServer(h: { db: Db; config: AppConfig }, input: McpServerCreateInput): Promise<McpServerView> {
  return createMcpServer(h.db, h.config, input, { id: await adminId(h.db) });
}

/** Changes a registered server (e.g. the seeded "kb") as the seeded admin would. */
export async function updateRegisteredMcpServer(h: { db: Db; config: AppConfig }, name: string, patch: McpServerUpdate): Promise<McpServerView> {
  return updateMcpServer(h.db, h.config, name, patch, { id: await adminId(h.db) });
}

/**
 * Writes a registry row with no checks at all: a stand-in for a row registered before the operator narrowed the
 * allowlist, or one written straight into the database. `env` is sealed as the registry would (needs `config`).
 */
export async function insertMcpServerRow(
  db: Db,
  row: { name: string; command: string; args: string[]; allowTools?: string[]; env?: Record<string, string> },
  config?: Pick<AppConfig, "keyMaterial"> & Partial<Pick<AppConfig, "encryptionKeys">>,
): Promise<void> {
  const env = row.env ?? {};
  const names = Object.keys(env).sort();
  if (names.length > 0 && !config) throw new Error("insertMcpServerRow: pass the config to seal env values");
  await db.mcpServer.create({
    data: {
      name: row.name,
      transport: "stdio",
      config: JSON.stringify({ command: row.command, args: row.args }),
      allowTools: JSON.stringify(row.allowTools ?? []),
      ...(names.length > 0 && config ? { secrets: sealSecrets(config, { env, headers: {} }), secretNames: JSON.stringify(names) } : {}),
    },
  });
}
