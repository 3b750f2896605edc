// Describes and executes an agent's tools: built-ins, then MCP servers.
// Problems the model caused (unknown tool, bad JSON, arguments failing the
// schema, a tool's own refusal) come back as error outcomes the model sees;
// infrastructure failures throw so Temporal retries them.
import type { AgentConfig } from "../../lib/agents/schemas";
import { MCP_TOOL_SEPARATOR } from "../../lib/tools/catalog";
import { toFunctionParameters } from "../../lib/tools/arguments";
import type { Db } from "../../lib/db/prisma";
import { formatPath } from "../../lib/errors";
import { createGuardedFetch } from "../../lib/net/egress";
import type { FunctionTool } from "../models/types";
import { findBuiltin } from "./builtins";
import { McpError, type McpConnections } from "./mcp";
import { ToolUserError, type ToolContext, type ToolOutcome } from "./types";

export interface SubAgentInfo {
  name: string;
  description: string;
}

export interface ToolExecutionRequest {
  agent: AgentConfig;
  toolName: string;
  rawArguments: string;
  context: Omit<ToolContext, "db" | "httpAllowlist" | "egressFetch">;
}

/** The message_agent tool a parent sees: which agents it may talk to and how. */
export function messageAgentTool(subAgents: SubAgentInfo[]): FunctionTool {
  const roster = subAgents.map((s) => `- ${s.name}: ${s.description || "(no description)"}`).join("\n");
  return {
    name: "message_agent",
    description: `Talk to a sub-agent. Start a conversation with agent_name + message, or continue one with conversation_id + message. Several conversations may run at once.\nAgents:\n${roster}`,
    parameters: {
      type: "object",
      properties: {
        agent_name: { type: "string", enum: subAgents.map((s) => s.name), description: "Start a new conversation with this agent" },
        conversation_id: { type: "string", description: "Continue this conversation" },
        message: { type: "string", description: "What to say" },
      },
      required: ["message"],
      additionalProperties: false,
    },
  };
}

export function createToolExecutor(deps: { db: Db; mcp: McpConnections; httpAllowlist: string[]; egressFetch?: typeof fetch }) {
  // Without an explicit guard, tools reach public addresses only (no egress allow-list).
  const egressFetch = deps.egressFetch ?? createGuardedFetch({ allowHosts: [] });
  return {
    /** Function schemas for an agent's tools; MCP discovery problems are reported, not thrown. */
    async describe(agent: AgentConfig, subAgents: SubAgentInfo[]): Promise<{ tools: FunctionTool[]; errors: string[] }> {
      const tools: FunctionTool[] = [];
      const errors: string[] = [];
      for (const id of agent.tools) {
        const builtin = findBuiltin(id);
        if (builtin) tools.push({ name: builtin.id, description: builtin.description, parameters: toFunctionParameters(builtin.schema) });
      }
      if (subAgents.length > 0) tools.push(messageAgentTool(subAgents));
      for (const server of agent.mcpServers) {
        try {
          tools.push(...(await deps.mcp.listTools(server)));
        } catch (error) {
          console.error(`worker: tool discovery for ${agent.name}:`, error);
          errors.push(error instanceof McpError ? error.publicMessage : `MCP server "${server.name}" could not be reached`);
          // Nothing of a server that may not run is offered; an unreachable one's allow-listed tools are, so calling them reports the outage.
          if (error instanceof McpError && !error.retryable) continue;
          for (const name of server.allowTools ?? []) {
            tools.push({ name: `${server.name}${MCP_TOOL_SEPARATOR}${name}`, description: `${name} (MCP server ${server.name}, currently unreachable)`, parameters: { type: "object" } });
          }
        }
      }
      return { tools, errors };
    },

    async execute(request: ToolExecutionRequest): Promise<ToolOutcome> {
      const { agent, toolName, rawArguments } = request;
      let args: unknown;
      try {
        args = rawArguments.trim() === "" ? {} : JSON.parse(rawArguments);
      } catch (error) {
        return { ok: false, errorKind: "invalid_arguments", content: `The arguments for ${toolName} are not valid JSON (${(error as Error).message}). Send a JSON object.` };
      }
      if (args === null || typeof args !== "object" || Array.isArray(args)) {
        return { ok: false, errorKind: "invalid_arguments", content: `The arguments for ${toolName} must be a JSON object.` };
      }

      const builtin = agent.tools.includes(toolName) ? findBuiltin(toolName) : undefined;
      if (builtin) {
        const parsed = builtin.schema.safeParse(args);
        if (!parsed.success) {
          const problems = parsed.error.issues.map((i) => `${formatPath(i.path) || "(arguments)"}: ${i.message}`).join("; ");
          return { ok: false, errorKind: "invalid_arguments", content: `Invalid arguments for ${toolName}: ${problems}` };
        }
        try {
          const result = await builtin.execute(parsed.data, { ...request.context, db: deps.db, httpAllowlist: deps.httpAllowlist, egressFetch });
          return { ok: true, content: JSON.stringify(result) };
        } catch (error) {
          if (error instanceof ToolUserError) return { ok: false, errorKind: "execution", content: `${toolName} failed: ${error.message}` };
          throw error;
        }
      }

      const separator = toolName.indexOf(MCP_TOOL_SEPARATOR);
      const server = separator > 0 ? agent.mcpServers.find((s) => s.name === toolName.slice(0, separator)) : undefined;
      const mcpTool = toolName.slice(separator + MCP_TOOL_SEPARATOR.length);
      if (server && (!server.allowTools || server.allowTools.includes(mcpTool))) {
        const meta = { zap: { runId: request.context.runId, rootRunId: request.context.rootRunId, agent: agent.name, callId: request.context.callId }, context: request.context.runContext };
        let result;
        try {
          result = await deps.mcp.callTool(server, mcpTool, args as Record<string, unknown>, meta);
        } catch (error) {
          // Not registered, not allowed: retrying cannot help, so the model hears it at once.
          if (error instanceof McpError && !error.retryable) return { ok: false, errorKind: "mcp", content: error.publicMessage };
          throw error;
        }
        return result.isError ? { ok: false, errorKind: "mcp", content: `${toolName} reported an error: ${result.text}` } : { ok: true, content: result.text };
      }

      const available = [...agent.tools, ...agent.mcpServers.flatMap((s) => (s.allowTools ?? ["*"]).map((t) => `${s.name}${MCP_TOOL_SEPARATOR}${t}`))];
      return { ok: false, errorKind: "unknown_tool", content: `There is no tool named "${toolName}". Available tools: ${available.join(", ") || "none"}.` };
    },
  };
}

export type ToolExecutor = ReturnType<typeof createToolExecutor>;
