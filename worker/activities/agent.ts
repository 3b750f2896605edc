// Activities of the agent workflow: model inference, tool discovery and tool
// execution. Long calls heartbeat so that a dead worker is noticed quickly and
// cancellation reaches them.
import { ApplicationFailure, Context } from "@temporalio/activity";
import type { AgentConfig } from "../../lib/agents/schemas";
import type { ChatMessage, TokenUsage } from "../../lib/engine/types";
import { ACTIVITY_ERRORS } from "../../lib/engine/definitions";
import type { ModelRegistry } from "../models/registry";
import { ModelCallError, type FunctionTool, type ModelToolCall } from "../models/types";
import type { SubAgentInfo, ToolExecutor } from "../tools/executor";
import type { ToolOutcome } from "../tools/types";

export interface InferenceInput {
  runId: string;
  iteration: number;
  agentName: string;
  model: string;
  messages: ChatMessage[];
  tools: FunctionTool[];
  temperature: number;
  maxOutputTokens: number;
}

export interface InferenceOutput {
  content: string | null;
  toolCalls: ModelToolCall[];
  usage: TokenUsage;
  latencyMs: number;
  attempt: number;
}

export interface ToolActivityInput {
  agent: AgentConfig;
  toolName: string;
  rawArguments: string;
  runId: string;
  rootRunId: string;
  iteration: number;
  callId: string;
  runContext: Record<string, unknown>;
}

export type ToolActivityOutput = ToolOutcome & { durationMs: number; attempt: number };

export interface AgentActivityDeps {
  models: ModelRegistry;
  tools: ToolExecutor;
}

const HEARTBEAT_EVERY_MS = 1000;

/** Heartbeats while `work` runs, so timeouts and cancellation reach long calls (local activities have no heartbeat). */
async function withHeartbeat<T>(work: () => Promise<T>): Promise<T> {
  const context = Context.current();
  if (context.info.isLocal) return work();
  const timer = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

export function createAgentActivities({ models, tools }: AgentActivityDeps) {
  return {
    async runInference(input: InferenceInput): Promise<InferenceOutput> {
      const context = Context.current();
      const attempt = context.info.attempt;
      const started = Date.now();
      try {
        const { provider, modelName } = models.resolve(input.model);
        const response = await withHeartbeat(() =>
          provider.generate(
            {
              model: input.model,
              agentName: input.agentName,
              messages: input.messages,
              tools: input.tools,
              temperature: input.temperature,
              maxOutputTokens: input.maxOutputTokens,
              attempt,
              signal: context.cancellationSignal,
            },
            modelName,
          ),
        );
        return { content: response.content, toolCalls: response.toolCalls, usage: response.usage, latencyMs: Date.now() - started, attempt };
      } catch (error) {
        if (error instanceof ModelCallError) {
          throw ApplicationFailure.create({ type: ACTIVITY_ERRORS.model, message: error.message, nonRetryable: !error.retryable });
        }
        throw error;
      }
    },

    async describeTools(input: { agent: AgentConfig; subAgents: SubAgentInfo[] }): Promise<{ tools: FunctionTool[]; errors: string[] }> {
      return withHeartbeat(() => tools.describe(input.agent, input.subAgents));
    },

    async executeTool(input: ToolActivityInput): Promise<ToolActivityOutput> {
      const context = Context.current();
      const started = Date.now();
      const outcome = await withHeartbeat(() =>
        tools.execute({
          agent: input.agent,
          toolName: input.toolName,
          rawArguments: input.rawArguments,
          context: {
            runId: input.runId,
            rootRunId: input.rootRunId,
            agentName: input.agent.name,
            iteration: input.iteration,
            callId: input.callId,
            idempotencyKey: `${input.runId}:${input.iteration}:${input.callId}`,
            runContext: input.runContext,
            signal: context.cancellationSignal,
            heartbeat: () => {
              if (!context.info.isLocal) context.heartbeat();
            },
          },
        }),
      );
      return { ...outcome, durationMs: Date.now() - started, attempt: context.info.attempt };
    },
  };
}

export type AgentActivities = ReturnType<typeof createAgentActivities>;
