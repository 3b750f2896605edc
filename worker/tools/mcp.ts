// MCP servers as tool sources. Only servers an admin registered are ever
// started: a graph names one, the worker reads its registration (briefly
// cached), re-checks the stdio allowlist (command, arguments and environment
// names), and starts the child in an empty private working directory with
// nothing of the worker's environment but PATH and a private HOME. HTTP
// servers get their sealed headers and go through the egress guard.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { DEFAULT_INHERITED_ENV_VARS, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { AppConfig } from "../../lib/config/env";
import type { Db } from "../../lib/db/prisma";
import { MCP_TOOL_SEPARATOR } from "../../lib/tools/catalog";
import { isStartUpVariable, refusedEnvNames, stdioAllowEntry } from "../../lib/mcp/allowlist";
import { DEMO_MCP_ARGV, RESERVED_ENV_NAMES } from "../../lib/mcp/schemas";
import { resolveRegisteredServer, type ResolvedMcpServer } from "../../lib/mcp/stored";
import { createGuardedFetch } from "../../lib/net/egress";
import type { FunctionTool } from "../models/types";

const CONNECT_TIMEOUT_MS = 10_000;
/** A registration is re-read at most this often: an admin's change applies within seconds, and a busy run does not query per call. */
const REGISTRY_CACHE_MS = 2_000;
/** A guardrail check holds up the run it guards: bounded well below a tool call's minute (the activity retries a timeout). */
export const MCP_CHECK_TIMEOUT_MS = 20_000;

/** An MCP failure: `publicMessage` is safe to show the model and the UI; the detail goes to the worker log only. */
export class McpError extends Error {
  override name = "McpError";
  constructor(
    readonly publicMessage: string,
    detail?: unknown,
    /** False when retrying cannot help (not registered, not allowed). */
    readonly retryable = true,
  ) {
    super(detail === undefined ? publicMessage : `${publicMessage}: ${detail instanceof Error ? detail.message : String(detail)}`);
  }
}

export interface McpCallResult {
  isError: boolean;
  /** The text parts of the result, joined. */
  text: string;
  /** The result's `structuredContent`, when the server sent one. */
  structuredContent?: Record<string, unknown>;
  /** The tool's `outputSchema` from tools/list, when it declares one: the executor checks `structuredContent` against it. */
  outputSchema?: Record<string, unknown>;
}

/** How a graph names a server: by name, optionally narrowing its tools. A legacy inline transport is refused. */
export interface McpServerRef {
  name: string;
  allowTools?: string[];
  transport?: unknown;
}

/** What travels with a call: who calls, and the run's context (sent only to servers that opted in). */
export interface McpCallMeta {
  zap: Record<string, unknown>;
  context: Record<string, unknown>;
}

export interface McpConnections {
  /** The server's tools this reference may use (every tool with `everyTool`, for discovery), as function schemas named `<server>__<tool>`. */
  listTools(ref: McpServerRef, options?: { everyTool?: boolean }): Promise<FunctionTool[]>;
  /** Whether `tool` is one this reference may call (registry list, narrowed by the graph). */
  allows(ref: McpServerRef, tool: string): Promise<boolean>;
  callTool(ref: McpServerRef, tool: string, args: Record<string, unknown>, meta: McpCallMeta): Promise<McpCallResult>;
  /** Calls a tool the registry offers as a guardrail check with `{ text }`; a tool only offered to models is refused. */
  callCheck(server: string, tool: string, text: string): Promise<McpCallResult>;
  closeAll(): Promise<void>;
}

export interface McpDeps {
  db: Db;
  config: Pick<AppConfig, "keyMaterial" | "mcpStdioAllowlist" | "egress"> & Partial<Pick<AppConfig, "encryptionKeys">>;
  /**
   * @deprecated Ignored: stdio servers no longer start in the project root (whose .data/ holds the auth secret,
   * database and key) but each in an empty private directory. Kept so older callers still compile.
   */
  cwd?: string;
}

export const notRegisteredMessage = (name: string) => `MCP server "${name}" is not registered; an admin must register it in Admin › MCP servers.`;

/**
 * The child's whole environment: PATH, a private HOME, and the server's
 * declared variables, less any that change how a program starts (NODE_OPTIONS,
 * LD_PRELOAD, …), which are dropped here whatever the caller checked before.
 * The SDK merges its own defaults (HOME, LOGNAME, SHELL, TERM, USER) under
 * what we pass; naming them undefined leaves them out, as Node skips undefined
 * values when it builds the child's environment.
 */
export function childEnvironment(declared: Record<string, string>, home: string): Record<string, string> {
  const cleared: Record<string, string | undefined> = Object.fromEntries(DEFAULT_INHERITED_ENV_VARS.map((name) => [name, undefined]));
  const reserved: readonly string[] = RESERVED_ENV_NAMES;
  const passed = Object.fromEntries(Object.entries(declared).filter(([name]) => !isStartUpVariable(name) && !reserved.includes(name.toUpperCase())));
  const env: Record<string, string | undefined> = { ...cleared, ...passed, PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin", HOME: home };
  return env as Record<string, string>;
}

const DEMO_SERVER_PATH = path.join(import.meta.dirname, "mcp-demo-server.ts");

/**
 * What to spawn for an allowed command. The bundled demo server is registered with paths relative to the
 * project (DEMO_MCP_ARGV) but starts in an empty directory: its script and tsx's loader are resolved here,
 * against this install, to absolute ones. Every other command runs exactly as registered.
 */
export function launchCommand(command: string, args: readonly string[]): { command: string; args: string[] } {
  const argv = [command, ...args];
  if (argv.length === DEMO_MCP_ARGV.length && argv.every((v, i) => v === DEMO_MCP_ARGV[i])) {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
    return { command, args: ["--import", tsx, DEMO_SERVER_PATH] };
  }
  return { command, args: [...args] };
}

/**
 * An output schema without its `$schema` marker: MCP schemas default to draft
 * 2020-12 (and zod-built servers say so), which the worker's validator does
 * not load by that name; the keywords such schemas use check the same without it.
 */
export function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

function allowedTools(server: ResolvedMcpServer, ref: McpServerRef): (tool: string) => boolean {
  return (tool) => (server.allowTools.length === 0 || server.allowTools.includes(tool)) && (!ref.allowTools || ref.allowTools.includes(tool));
}

export function createMcpConnections(deps: McpDeps): McpConnections {
  const clients = new Map<string, Promise<Client>>();
  /** Each connection's tools that declare an output schema (from its last tools/list), by tool name. */
  const outputSchemas = new WeakMap<Client, Promise<Map<string, Record<string, unknown>>>>();
  const registrations = new Map<string, { at: number; server: Promise<ResolvedMcpServer | null> }>();
  /** Each server's private directories (one owner-only temp dir holding an empty working directory and a HOME), made once per worker. */
  const privateDirs = new Map<string, { root: string; home: string; cwd: string }>();
  const guardedFetch = createGuardedFetch({ allowHosts: deps.config.egress.allowHosts, maxRedirects: 0, timeoutMs: 120_000 });

  async function registered(ref: McpServerRef): Promise<ResolvedMcpServer> {
    if (ref.transport !== undefined) throw new McpError(notRegisteredMessage(ref.name), "the graph carries an inline transport", false);
    let cached = registrations.get(ref.name);
    if (!cached || Date.now() - cached.at > REGISTRY_CACHE_MS) {
      cached = { at: Date.now(), server: resolveRegisteredServer(deps.db, deps.config, ref.name) };
      registrations.set(ref.name, cached);
      cached.server.catch(() => registrations.delete(ref.name));
    }
    const server = await cached.server;
    if (!server) throw new McpError(notRegisteredMessage(ref.name), undefined, false);
    return server;
  }

  /** A server's private HOME and working directory: not the project root, so .data/ is not the child's working tree. */
  function dirsOf(name: string): { home: string; cwd: string } {
    let dirs = privateDirs.get(name);
    if (!dirs) {
      const root = mkdtempSync(path.join(os.tmpdir(), `zap-mcp-${name}-`)); // mode 0700
      dirs = { root, home: path.join(root, "home"), cwd: path.join(root, "cwd") };
      mkdirSync(dirs.home, { mode: 0o700 });
      mkdirSync(dirs.cwd, { mode: 0o700 });
      privateDirs.set(name, dirs);
    }
    return dirs;
  }

  function transportOf(server: ResolvedMcpServer): Transport {
    if (server.transport.type === "stdio") {
      // Defence in depth: the registry checked these at registration, but the allowlist may have shrunk since, or the row been written around it.
      const entry = stdioAllowEntry(deps.config.mcpStdioAllowlist, server.transport.command, server.transport.args);
      if (!entry) {
        throw new McpError(`MCP server "${server.name}" may not be started: its command is not on the operator's allowlist.`, undefined, false);
      }
      const refused = refusedEnvNames(entry, Object.keys(server.secrets.env).sort());
      if (refused.length > 0) {
        throw new McpError(`MCP server "${server.name}" may not be started: ${refused.map((r) => r.message).join("; ")}.`, undefined, false);
      }
      const dirs = dirsOf(server.name);
      const { command, args } = launchCommand(server.transport.command, server.transport.args);
      return new StdioClientTransport({ command, args, env: childEnvironment(server.secrets.env, dirs.home), cwd: dirs.cwd, stderr: "ignore" });
    }
    return new StreamableHTTPClientTransport(new URL(server.transport.url), { fetch: guardedFetch, requestInit: { headers: server.secrets.headers } });
  }

  async function connect(server: ResolvedMcpServer): Promise<Client> {
    const client = new Client({ name: "zap-studio-worker", version: "1.0.0" });
    const transport = transportOf(server);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.connect(transport),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new McpError(`MCP server "${server.name}" is unreachable`, error);
    } finally {
      clearTimeout(timer);
    }
    client.onclose = () => clients.delete(server.revision);
    return client;
  }

  function clientFor(server: ResolvedMcpServer): Promise<Client> {
    let client = clients.get(server.revision);
    if (!client) {
      // A new registration of the same name replaces the old connection.
      for (const [key, old] of clients) {
        if (key.startsWith(`${server.name}@`)) {
          clients.delete(key);
          void old.then((c) => c.close()).catch(() => undefined);
        }
      }
      client = connect(server);
      clients.set(server.revision, client);
      client.catch(() => clients.delete(server.revision));
    }
    return client;
  }

  /** Lists a connection's tools and remembers their output schemas for the calls that follow. */
  async function listToolsOf(server: ResolvedMcpServer, client: Client) {
    const listing = client.listTools().then(
      ({ tools }) => tools,
      (error: unknown) => {
        throw new McpError(`MCP server "${server.name}" did not list its tools`, error);
      },
    );
    const schemas = listing.then((tools) => new Map(tools.flatMap((t) => (t.outputSchema ? [[t.name, withoutDialect(t.outputSchema)] as const] : []))));
    // A failed listing is forgotten (unless a newer one replaced it), so the next call asks again.
    outputSchemas.set(client, schemas);
    schemas.catch(() => {
      if (outputSchemas.get(client) === schemas) outputSchemas.delete(client);
    });
    return listing;
  }

  /** A tool's output schema on this connection; a connection that has not listed its tools yet (a call on another worker than the run's discovery) lists them once. */
  async function outputSchemaOf(server: ResolvedMcpServer, client: Client, tool: string): Promise<Record<string, unknown> | undefined> {
    let schemas = outputSchemas.get(client);
    if (!schemas) {
      await listToolsOf(server, client);
      schemas = outputSchemas.get(client);
    }
    return (await schemas)?.get(tool);
  }

  return {
    async listTools(ref, options = {}) {
      const server = await registered(ref);
      const client = await clientFor(server);
      const tools = await listToolsOf(server, client);
      const allowed = options.everyTool ? () => true : allowedTools(server, ref);
      return tools
        .filter((t) => allowed(t.name))
        .map((t) => ({
          name: `${server.name}${MCP_TOOL_SEPARATOR}${t.name}`,
          description: t.description ?? `${t.name} (MCP server ${server.name})`,
          parameters: { ...(t.inputSchema as Record<string, unknown>), type: "object" },
        }));
    },
    async allows(ref, tool) {
      return allowedTools(await registered(ref), ref)(tool);
    },
    async callTool(ref, tool, args, meta) {
      const server = await registered(ref);
      if (!allowedTools(server, ref)(tool)) throw new McpError(`MCP server "${server.name}" does not offer ${tool} to this agent.`, undefined, false);
      const client = await clientFor(server);
      // The run's context may hold customer data: only servers registered to receive it get it.
      const _meta = server.receivesRunContext ? { zap: meta.zap, context: meta.context } : { zap: meta.zap };
      const outputSchema = await outputSchemaOf(server, client, tool);
      let result;
      try {
        // A plain request, not client.callTool: the SDK would check structured content itself and throw an
        // error indistinguishable from an outage (retried, then "unavailable"), where a result that breaks
        // its schema is a failed call the model hears at once, checked like the built-ins' (executor.ts).
        result = await client.request({ method: "tools/call", params: { name: tool, arguments: args, _meta } }, CallToolResultSchema);
      } catch (error) {
        throw new McpError(`MCP server "${server.name}" failed on ${tool}`, error);
      }
      const text = result.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n");
      return {
        isError: result.isError === true,
        text,
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
        ...(outputSchema ? { outputSchema } : {}),
      };
    },
    async callCheck(name, tool, text) {
      const server = await registered({ name });
      // Checks are their own list: a builder names a check, so a tool a model may call (create_ticket) must never become one.
      if (!server.guardrailTools.includes(tool)) throw new McpError(`MCP server "${server.name}" does not offer ${tool} as a guardrail check.`, undefined, false);
      const client = await clientFor(server);
      let result;
      try {
        result = await client.request({ method: "tools/call", params: { name: tool, arguments: { text } } }, CallToolResultSchema, { timeout: MCP_CHECK_TIMEOUT_MS });
      } catch (error) {
        throw new McpError(`MCP server "${server.name}" failed on ${tool}`, error);
      }
      return {
        isError: result.isError === true,
        text: result.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n"),
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
      };
    },
    async closeAll() {
      const all = [...clients.values()];
      clients.clear();
      registrations.clear();
      await Promise.all(all.map((c) => c.then((client) => client.close()).catch(() => undefined)));
      // The children are gone: their private directories go too.
      for (const dirs of privateDirs.values()) rmSync(dirs.root, { recursive: true, force: true });
      privateDirs.clear();
    },
  };
}

/** A one-off connection for discovery: lists every tool of the server (the admin chooses which to allow), then closes. */
export async function discoverRegisteredTools(deps: McpDeps, name: string): Promise<{ name: string; description: string }[]> {
  const connections = createMcpConnections(deps);
  try {
    const tools = await connections.listTools({ name }, { everyTool: true });
    const prefix = `${name}${MCP_TOOL_SEPARATOR}`;
    return tools.map((t) => ({ name: t.name.startsWith(prefix) ? t.name.slice(prefix.length) : t.name, description: t.description }));
  } finally {
    await connections.closeAll();
  }
}
