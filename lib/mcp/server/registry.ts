import "server-only";
// The MCP server registry: one function per operation, called by the admin
// routes and server actions alike. Secret values are sealed before they are
// stored and never returned; audit rows name secrets, never their values.
import type { Db } from "../../db/prisma";
import type { AppConfig } from "../../config/env";
import { writeTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import { ConflictError, ValidationError } from "../../errors";
import { McpServerNotFound } from "../errors";
import { assertPublicUrl, EgressRefusedError } from "../../net/egress";
import { refusedEnvNames, stdioAllowEntry, STDIO_NOT_ALLOWED_MESSAGE } from "../allowlist";
import {
  mcpServerCreateSchema,
  mcpServerUpdateSchema,
  type McpServerCreateInput,
  type McpServerUpdate,
  type McpServerView,
  type McpTransport,
} from "../schemas";
import { sealSecrets, toView, unsealSecrets, type McpSecrets } from "../stored";

export type RegistryConfig = Pick<AppConfig, "keyMaterial" | "mcpStdioAllowlist" | "egress"> & Partial<Pick<AppConfig, "encryptionKeys">>;

interface Actor {
  id: string;
}

/** Every registered server, without secret values. */
export async function listMcpServers(db: Db): Promise<McpServerView[]> {
  const rows = await db.mcpServer.findMany({ orderBy: { name: "asc" } });
  return rows.map(toView);
}

export async function getMcpServer(db: Db, name: string): Promise<McpServerView> {
  const row = await db.mcpServer.findUnique({ where: { name } });
  if (!row) throw new McpServerNotFound(name);
  return toView(row);
}

/**
 * Splits a URL's credentials off into a Basic authorization header, so the
 * stored, listed URL never carries a password.
 */
function withoutCredentials(transport: McpTransport): { transport: McpTransport; headers: Record<string, string> } {
  if (transport.type !== "http") return { transport, headers: {} };
  const url = new URL(transport.url);
  if (!url.username && !url.password) return { transport, headers: {} };
  const basic = Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64");
  url.username = "";
  url.password = "";
  return { transport: { type: "http", url: url.toString() }, headers: { Authorization: `Basic ${basic}` } };
}

/** The allowlist entry of a stdio transport, or a refusal naming transport.command. */
function allowEntry(config: RegistryConfig, transport: Extract<McpTransport, { type: "stdio" }>) {
  const entry = stdioAllowEntry(config.mcpStdioAllowlist, transport.command, transport.args);
  if (!entry) throw new ValidationError([{ path: "transport.command", message: STDIO_NOT_ALLOWED_MESSAGE }], "This stdio command may not be registered");
  return entry;
}

/** Refuses what must never be registered: a stdio command off the allowlist, an HTTP URL into a private network. */
async function checkTransport(config: RegistryConfig, transport: McpTransport): Promise<void> {
  if (transport.type === "stdio") {
    allowEntry(config, transport);
    return;
  }
  // A URL is shown to every viewer (designer, listings); a query is where hosted servers put their keys.
  if (new URL(transport.url).search) {
    throw new ValidationError([{ path: "transport.url", message: "leave the query out of the URL: put a key or token in a secret header (e.g. Authorization), which is stored sealed" }], "This URL may not be registered");
  }
  try {
    await assertPublicUrl(transport.url, { allowHosts: config.egress.allowHosts });
  } catch (error) {
    if (error instanceof EgressRefusedError) throw new ValidationError([{ path: "transport.url", message: error.publicMessage }], "This URL may not be registered");
    throw error;
  }
}

/** Applies a write-only secrets patch: a value replaces, null removes, a missing name keeps. */
function mergeSecrets(stored: Record<string, string>, patch: Record<string, string | null>): Record<string, string> {
  const next = { ...stored };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete next[name];
    else next[name] = value;
  }
  return next;
}

/**
 * A stdio server's secrets are its child's environment: only the names its allowlist entry lists, never PATH or
 * HOME (the worker sets them), never a variable that changes how the program starts (NODE_OPTIONS, LD_PRELOAD, …).
 */
function checkSecretNames(config: RegistryConfig, transport: McpTransport, secrets: Record<string, string>): void {
  if (transport.type !== "stdio") return;
  const refused = refusedEnvNames(allowEntry(config, transport), Object.keys(secrets).sort());
  if (refused.length > 0) {
    throw new ValidationError(
      refused.map((r) => ({ path: `secrets.${r.name}`, message: r.message })),
      `This server may not receive ${refused.map((r) => r.name).join(", ")}`,
    );
  }
}

/** The row's columns for a transport and its secrets (one map: env for stdio, headers for HTTP). */
function columns(config: RegistryConfig, transport: McpTransport, values: Record<string, string>) {
  const { type, ...settings } = transport;
  const secrets: McpSecrets = type === "stdio" ? { env: values, headers: {} } : { env: {}, headers: values };
  const names = Object.keys(values).sort();
  return {
    transport: type,
    config: JSON.stringify(settings),
    secrets: names.length > 0 ? sealSecrets(config, secrets) : null,
    secretNames: JSON.stringify(names),
  };
}

/** Registers a server (admin). Its stdio command must be allow-listed; URL credentials become a sealed header. */
export async function createMcpServer(db: Db, config: RegistryConfig, raw: McpServerCreateInput, actor: Actor): Promise<McpServerView> {
  const input = mcpServerCreateSchema.parse(raw);
  await checkTransport(config, input.transport);
  const { transport, headers } = withoutCredentials(input.transport);
  const values = { ...headers, ...mergeSecrets({}, input.secrets) };
  checkSecretNames(config, transport, values);
  const row = await writeTransaction(db, async (tx) => {
    if (await tx.mcpServer.findUnique({ where: { name: input.name } })) throw new ConflictError(`An MCP server named "${input.name}" is already registered`);
    const created = await tx.mcpServer.create({
      data: {
        name: input.name,
        description: input.description,
        ...columns(config, transport, values),
        allowTools: JSON.stringify(input.allowTools),
        guardrailTools: JSON.stringify(input.guardrailTools),
        receivesRunContext: input.receivesRunContext,
        createdById: actor.id,
        updatedById: actor.id,
      },
    });
    await appendAuditInTransaction(tx, {
      actorId: actor.id,
      action: "mcp_server.created",
      target: input.name,
      details: { transport: transport.type, allowTools: input.allowTools, guardrailTools: input.guardrailTools, secretNames: Object.keys(values).sort(), receivesRunContext: input.receivesRunContext },
    });
    return created;
  });
  return toView(row);
}

/** Changes a server (admin); secrets follow the write-only patch rules of mcpSecretsInputSchema. */
export async function updateMcpServer(db: Db, config: RegistryConfig, name: string, raw: McpServerUpdate, actor: Actor): Promise<McpServerView> {
  const patch = mcpServerUpdateSchema.parse(raw);
  if (patch.transport) await checkTransport(config, patch.transport);
  const row = await writeTransaction(db, async (tx) => {
    const current = await tx.mcpServer.findUnique({ where: { name } });
    if (!current) throw new McpServerNotFound(name);
    const view = toView(current);
    const stored = unsealSecrets(config, current.secrets);
    const { transport, headers } = withoutCredentials(patch.transport ?? view.transport);
    // A change of transport type keeps the secrets: env variables become headers and back.
    const values = { ...mergeSecrets({ ...stored.env, ...stored.headers }, patch.secrets ?? {}), ...headers };
    // What runs changes only with the transport or the secrets: a description or tool change on an older row stays possible.
    if (patch.transport || patch.secrets) checkSecretNames(config, transport, values);
    const updated = await tx.mcpServer.update({
      where: { name },
      data: {
        ...(patch.description === undefined ? {} : { description: patch.description }),
        ...columns(config, transport, values),
        ...(patch.allowTools === undefined ? {} : { allowTools: JSON.stringify(patch.allowTools) }),
        ...(patch.guardrailTools === undefined ? {} : { guardrailTools: JSON.stringify(patch.guardrailTools) }),
        ...(patch.receivesRunContext === undefined ? {} : { receivesRunContext: patch.receivesRunContext }),
        updatedById: actor.id,
      },
    });
    await appendAuditInTransaction(tx, {
      actorId: actor.id,
      action: "mcp_server.updated",
      target: name,
      details: {
        changed: Object.keys(patch).sort(),
        ...(patch.guardrailTools === undefined ? {} : { guardrailTools: patch.guardrailTools }),
        ...(patch.secrets ? { secretsSet: Object.keys(patch.secrets).filter((k) => patch.secrets?.[k] !== null), secretsRemoved: Object.keys(patch.secrets).filter((k) => patch.secrets?.[k] === null) } : {}),
      },
    });
    return updated;
  });
  return toView(row);
}

/** Removes a server (admin). Graphs that name it are refused at their next save or run. */
export async function deleteMcpServer(db: Db, name: string, actor: Actor): Promise<void> {
  await writeTransaction(db, async (tx) => {
    const current = await tx.mcpServer.findUnique({ where: { name } });
    if (!current) throw new McpServerNotFound(name);
    await tx.mcpServer.delete({ where: { name } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "mcp_server.deleted", target: name, details: { transport: current.transport } });
  });
}
