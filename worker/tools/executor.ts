// Describes and executes an agent's tools: built-ins, then MCP servers.
// Problems the model caused (unknown tool, bad JSON, arguments failing the
// schema, a tool's own refusal) come back as error outcomes the model sees;
// infrastructure failures throw so Temporal retries them. A result is checked
// against the tool's output schema, when it declares one, before the model
// sees it: one that does not match is a failed call (issue 16 §2).
import type { AgentConfig } from "../../lib/agents/schemas";
import { MCP_TOOL_SEPARATOR } from "../../lib/tools/catalog";
import { toFunctionParameters } from "../../lib/tools/arguments";
import type { Db } from "../../lib/db/prisma";
import { formatPath } from "../../lib/errors";
import { checkValue } from "../../lib/json-schema/validator";
import { createGuardedFetch } from "../../lib/net/egress";
import type { FunctionTool } from "../models/types";
import { findBuiltin } from "./builtins";
import { McpError, type McpCallResult, type McpConnections } from "./mcp";
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

/** At most this many validation errors reach the model: enough to fix a shape, short enough not to drown the conversation. */
const MAX_RESULT_ERRORS = 8;

/** What the model should do about a discarded result: a tool that may have acted must not be repeated blindly. */
function discardedAdvice(mayHaveActed: boolean): string {
  return mayHaveActed
    ? "Do not invent the result. The call may already have taken effect: do not repeat it without checking."
    : "Do not invent the result; call the tool again or report the problem.";
}

/**
 * A result checked against the tool's output schema: the JSON the model
 * reads, or a failed call naming what did not match. `mayHaveActed`: the tool
 * has side effects (or may have), which the advice to the model respects.
 */
export function checkedResult(toolName: string, outputSchema: Record<string, unknown>, result: unknown, mayHaveActed = false): ToolOutcome {
  const check = checkValue(outputSchema, result, { maxErrors: MAX_RESULT_ERRORS });
  if (check.ok) return { ok: true, content: JSON.stringify(result), validation: "ok" };
  return {
    ok: false,
    errorKind: "invalid_result",
    validation: "failed",
    content: `${toolName} returned a result that does not match its output schema, so it was discarded: ${check.errors.join("; ")}. ${discardedAdvice(mayHaveActed)}`,
  };
}

/** An MCP tool's answer as an outcome: its structured content, checked, when the tool declares an output schema; its text otherwise. */
export function mcpOutcome(toolName: string, result: McpCallResult): ToolOutcome {
  if (result.isError) return { ok: false, errorKind: "mcp", content: `${toolName} reported an error: ${result.text}` };
  if (result.outputSchema) {
    // The MCP spec: a tool with an output schema must return structured content that matches it.
    if (result.structuredContent === undefined) {
      return {
        ok: false,
        errorKind: "invalid_result",
        validation: "failed",
        content: `${toolName} declares an output schema but returned no structured content, so its result was discarded. ${discardedAdvice(true)}`,
      };
    }
    // Any MCP tool may act on the world: the model is told not to repeat it blindly.
    return checkedResult(toolName, result.outputSchema, result.structuredContent, true);
  }
  if (result.text === "" && result.structuredContent !== undefined) return { ok: true, content: JSON.stringify(result.structuredContent) };
  return { ok: true, content: result.text };
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

    /**
     * Whether the agent has this tool at all (a built-in it lists, or a tool of one of its MCP
     * servers that the server's allow-list admits). A taped run asks before it looks on the tape:
     * a version without the tool must hear "no such tool", not the recording of another version.
     */
    offers(agent: AgentConfig, toolName: string): boolean {
      if (agent.tools.includes(toolName)) return findBuiltin(toolName) !== undefined;
      const separator = toolName.indexOf(MCP_TOOL_SEPARATOR);
      if (separator <= 0) return false;
      const server = agent.mcpServers.find((s) => s.name === toolName.slice(0, separator));
      const mcpTool = toolName.slice(separator + MCP_TOOL_SEPARATOR.length);
      return server !== undefined && (!server.allowTools || server.allowTools.includes(mcpTool));
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
          return checkedResult(toolName, builtin.outputSchema, result, builtin.sideEffect);
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
        return mcpOutcome(toolName, result);
      }

      const available = [...agent.tools, ...agent.mcpServers.flatMap((s) => (s.allowTools ?? ["*"]).map((t) => `${s.name}${MCP_TOOL_SEPARATOR}${t}`))];
      return { ok: false, errorKind: "unknown_tool", content: `There is no tool named "${toolName}". Available tools: ${available.join(", ") || "none"}.` };
    },
  };
}

export type ToolExecutor = ReturnType<typeof createToolExecutor>;
