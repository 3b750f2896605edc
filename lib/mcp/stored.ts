// Registry rows as the web server and the worker read them. The worker imports
// this (not lib/mcp/server, which is web-only): it is the one place a sealed
// secret is opened, and only the worker calls that.
import { z } from "zod";
import type { Db } from "../db/prisma";
import { keyRing, type KeyRingConfig } from "../crypto/keys";
import { sealWithRing, unsealWithRing } from "../crypto/seal";
import { mcpTransportSchema, type McpServerView, type McpTransport } from "./schemas";

/** The columns of an `mcp_servers` row this module reads. */
export interface McpServerRow {
  name: string;
  description: string;
  transport: string;
  config: string;
  allowTools: string;
  guardrailTools: string;
  secrets: string | null;
  secretNames: string;
  receivesRunContext: boolean;
  updatedAt: Date;
}

/** Secret values by kind: environment variables of a stdio child, headers of HTTP requests. */
export interface McpSecrets {
  env: Record<string, string>;
  headers: Record<string, string>;
}

const stringList = z.array(z.string());
const secretsSchema = z.strictObject({ env: z.record(z.string(), z.string()), headers: z.record(z.string(), z.string()) });

function parseJson<S extends z.ZodType>(schema: S, text: string): z.infer<S> {
  return schema.parse(JSON.parse(text));
}

/** The stored transport: `config` holds `{ command, args }` or `{ url }`, `transport` the type. */
export function storedTransport(row: Pick<McpServerRow, "transport" | "config">): McpTransport {
  return mcpTransportSchema.parse({ type: row.transport, ...(JSON.parse(row.config) as Record<string, unknown>) });
}

/** What may leave the server: the row without any secret value. */
export function toView(row: McpServerRow): McpServerView {
  return {
    name: row.name,
    description: row.description,
    transport: storedTransport(row),
    allowTools: parseJson(stringList, row.allowTools),
    guardrailTools: parseJson(stringList, row.guardrailTools),
    secretNames: parseJson(stringList, row.secretNames),
    receivesRunContext: row.receivesRunContext,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Seals with the first key of ZAP_ENCRYPTION_KEYS (else, with no ring, the legacy ZAP_ENCRYPTION_KEY / AUTH_SECRET). */
export function sealSecrets(config: KeyRingConfig, secrets: McpSecrets): string {
  return sealWithRing(keyRing(config, "mcp-secrets"), "mcp-secrets", JSON.stringify(secrets));
}

/** Opens secrets sealed with any key of ZAP_ENCRYPTION_KEYS, or (sealed before the ring) the legacy key. */
export function unsealSecrets(config: KeyRingConfig, sealed: string | null): McpSecrets {
  if (!sealed) return { env: {}, headers: {} };
  return parseJson(secretsSchema, unsealWithRing(keyRing(config, "mcp-secrets"), "mcp-secrets", sealed));
}

/** A registered server with its secrets opened: worker-only. */
export interface ResolvedMcpServer extends McpServerView {
  secrets: McpSecrets;
  /** Changes whenever the row does, so a cached connection to an older registration is not reused. */
  revision: string;
}

/** Reads a registered server and opens its secrets, or null when no server has that name. */
export async function resolveRegisteredServer(db: Db, config: KeyRingConfig, name: string): Promise<ResolvedMcpServer | null> {
  const row = await db.mcpServer.findUnique({ where: { name } });
  if (!row) return null;
  return { ...toView(row), secrets: unsealSecrets(config, row.secrets), revision: `${row.name}@${row.updatedAt.getTime()}` };
}
