// Activities of the agent workflow: model inference, tool discovery and tool
// execution. Long calls heartbeat so that a dead worker is noticed quickly and
// cancellation reaches them.
import { hostname } from "node:os";
import { ApplicationFailure, Context } from "@temporalio/activity";
import type { AgentConfig } from "../../lib/agents/schemas";
import type { TokenUsage } from "../../lib/engine/types";
import { ACTIVITY_ERRORS } from "../../lib/engine/definitions";
import type { Db } from "../../lib/db/prisma";
import { readMessages } from "../../lib/engine/ledger/read";
import type { ModelRegistry } from "../models/registry";
import { ModelCallError, type FunctionTool, type ModelToolCall } from "../models/types";
import type { SubAgentInfo, ToolExecutor } from "../tools/executor";
import type { ToolOutcome } from "../tools/types";
import { McpError } from "../tools/mcp";

export interface InferenceInput {
  runId: string;
  iteration: number;
  agentName: string;
  model: string;
  /** The conversation is read from the run ledger: its first `messageCount` messages. */
  messageCount: number;
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

/** `retryReason`: why earlier attempts did not finish (for the trace), when this is a retry. */
export type ToolActivityOutput = ToolOutcome & { durationMs: number; attempt: number; retryReason?: string };

/** Heartbeat details name the worker, so the next attempt can tell a lost worker from a failed attempt. */
interface HeartbeatMark {
  worker: string;
  attempt: number;
}

const WORKER_ID = `${hostname()}/${process.pid}`;

/** Why the attempt before this one did not finish, read from its last heartbeat. */
export function retryReason(attempt: number, previous: unknown, worker: string = WORKER_ID): string | undefined {
  if (attempt <= 1) return undefined;
  const mark = previous && typeof previous === "object" ? (previous as Partial<HeartbeatMark>) : null;
  if (mark?.worker && mark.worker !== worker) {
    return `attempt ${attempt - 1} stopped heartbeating on worker ${mark.worker} (heartbeat timeout: the worker was lost); retried on ${worker}`;
  }
  if (mark?.worker) return `attempt ${attempt - 1} failed on this worker (${worker}) and was retried; details are in the worker log`;
  return `attempt ${attempt - 1} failed or timed out before its first heartbeat and was retried`;
}

export interface AgentActivityDeps {
  db: Db;
  models: ModelRegistry;
  tools: ToolExecutor;
}

const HEARTBEAT_EVERY_MS = 1000;
const MCP_ATTEMPTS = 3;

/** Heartbeats while `work` runs, so timeouts and cancellation reach long calls (local activities have no heartbeat). */
async function withHeartbeat<T>(work: () => Promise<T>): Promise<T> {
  const context = Context.current();
  if (context.info.isLocal) return work();
  const mark: HeartbeatMark = { worker: WORKER_ID, attempt: context.info.attempt };
  context.heartbeat(mark);
  const timer = setInterval(() => context.heartbeat(mark), HEARTBEAT_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/**
 * Logs an unexpected failure with the run it belongs to and replaces it with a
 * retryable error whose message is safe to show: stack traces, file paths and
 * driver messages stay in the worker log.
 */
function infrastructureFailure(error: unknown, what: string, runId: string, attempt: number): ApplicationFailure {
  console.error(`worker: ${what} failed in run ${runId} (attempt ${attempt}):`, error);
  return ApplicationFailure.create({ type: ACTIVITY_ERRORS.infrastructure, message: `${what} failed on an internal problem (see the worker log for run ${runId})` });
}

export function createAgentActivities({ db, models, tools }: AgentActivityDeps) {
  return {
    async runInference(input: InferenceInput): Promise<InferenceOutput> {
      const context = Context.current();
      const attempt = context.info.attempt;
      const started = Date.now();
      let messages;
      try {
        messages = await readMessages(db, input.runId, input.messageCount);
      } catch (error) {
        throw infrastructureFailure(error, "reading the conversation", input.runId, attempt);
      }
      if (messages.length !== input.messageCount) {
        throw infrastructureFailure(new Error(`ledger holds ${messages.length} of ${input.messageCount} messages`), "reading the conversation", input.runId, attempt);
      }
      try {
        const { provider, modelName } = models.resolve(input.model);
        const response = await withHeartbeat(() =>
          provider.generate(
            {
              model: input.model,
              agentName: input.agentName,
              messages,
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
        throw infrastructureFailure(error, "the model call", input.runId, attempt);
      }
    },

    async describeTools(input: { agent: AgentConfig; subAgents: SubAgentInfo[] }): Promise<{ tools: FunctionTool[]; errors: string[] }> {
      return withHeartbeat(() => tools.describe(input.agent, input.subAgents));
    },

    async executeTool(input: ToolActivityInput): Promise<ToolActivityOutput> {
      const context = Context.current();
      const started = Date.now();
      // Read before this attempt's own heartbeats replace them.
      const why = context.info.isLocal ? undefined : retryReason(context.info.attempt, context.info.heartbeatDetails);
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
              if (!context.info.isLocal) context.heartbeat({ worker: WORKER_ID, attempt: context.info.attempt } satisfies HeartbeatMark);
            },
          },
        }),
      ).catch((error: unknown) => {
        if (error instanceof ApplicationFailure) throw error;
        const attempt = context.info.attempt;
        if (error instanceof McpError) {
          console.error(`worker: ${input.toolName} failed in run ${input.runId} (attempt ${attempt}):`, error.message);
          // An unreachable server rarely comes back within seconds: three attempts, then the model hears it.
          throw ApplicationFailure.create({ type: ACTIVITY_ERRORS.toolUnavailable, message: error.publicMessage, nonRetryable: attempt >= MCP_ATTEMPTS });
        }
        throw infrastructureFailure(error, input.toolName, input.runId, attempt);
      });
      return { ...outcome, durationMs: Date.now() - started, attempt: context.info.attempt, ...(why ? { retryReason: why } : {}) };
    },
  };
}

export type AgentActivities = ReturnType<typeof createAgentActivities>;
