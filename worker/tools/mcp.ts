// MCP servers as tool sources: discover their tools, convert input schemas to
// function-calling schemas, and call them with the run's context as metadata.
// Connections are kept per server configuration for the life of the worker.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { McpServerConfig } from "../../lib/agents/schemas";
import { MCP_TOOL_SEPARATOR } from "../../lib/agents/builtin-tools";
import type { FunctionTool } from "../models/types";

const CONNECT_TIMEOUT_MS = 10_000;

/** An MCP failure: `publicMessage` is safe to show the model and the UI; the detail goes to the worker log only. */
export class McpError extends Error {
  override name = "McpError";
  constructor(
    readonly publicMessage: string,
    detail?: unknown,
  ) {
    super(detail === undefined ? publicMessage : `${publicMessage}: ${detail instanceof Error ? detail.message : String(detail)}`);
  }
}

export interface McpCallResult {
  isError: boolean;
  text: string;
}

export interface McpConnections {
  listTools(server: McpServerConfig): Promise<FunctionTool[]>;
  callTool(server: McpServerConfig, tool: string, args: Record<string, unknown>, meta: Record<string, unknown>): Promise<McpCallResult>;
  closeAll(): Promise<void>;
}

function keyOf(server: McpServerConfig): string {
  return JSON.stringify(server.transport);
}

export function createMcpConnections(options: { cwd?: string } = {}): McpConnections {
  const clients = new Map<string, Promise<Client>>();

  async function connect(server: McpServerConfig): Promise<Client> {
    const client = new Client({ name: "zap-studio-worker", version: "1.0.0" });
    const transport =
      server.transport.type === "stdio"
        ? new StdioClientTransport({
            command: server.transport.command,
            args: server.transport.args,
            env: { ...(process.env as Record<string, string>), ...server.transport.env },
            cwd: options.cwd,
            stderr: "ignore",
          })
        : new StreamableHTTPClientTransport(new URL(server.transport.url));
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.connect(transport),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new McpError(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new McpError(`MCP server "${server.name}" is unreachable`, error);
    } finally {
      clearTimeout(timer);
    }
    client.onclose = () => clients.delete(keyOf(server));
    return client;
  }

  function clientFor(server: McpServerConfig): Promise<Client> {
    const key = keyOf(server);
    let client = clients.get(key);
    if (!client) {
      client = connect(server);
      clients.set(key, client);
      client.catch(() => clients.delete(key));
    }
    return client;
  }

  return {
    async listTools(server) {
      const client = await clientFor(server);
      const { tools } = await client.listTools();
      return tools
        .filter((t) => !server.allowTools || server.allowTools.includes(t.name))
        .map((t) => ({
          name: `${server.name}${MCP_TOOL_SEPARATOR}${t.name}`,
          description: t.description ?? `${t.name} (MCP server ${server.name})`,
          parameters: { ...(t.inputSchema as Record<string, unknown>), type: "object" },
        }));
    },
    async callTool(server, tool, args, meta) {
      const client = await clientFor(server);
      let result;
      try {
        result = await client.callTool({ name: tool, arguments: args, _meta: meta });
      } catch (error) {
        throw new McpError(`MCP server "${server.name}" failed on ${tool}`, error);
      }
      const content = Array.isArray(result.content) ? result.content : [];
      const text = content.map((part: { type: string; text?: string }) => (part.type === "text" ? (part.text ?? "") : `[${part.type}]`)).join("\n");
      return { isError: result.isError === true, text };
    },
    async closeAll() {
      const all = [...clients.values()];
      clients.clear();
      await Promise.all(all.map((c) => c.then((client) => client.close()).catch(() => undefined)));
    },
  };
}
