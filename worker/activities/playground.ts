// The playground's activities (issue 27 §1): one model call run alone, with the
// engine's own model code (the registry's providers, images and plan results
// loaded as for a run), and the description of an agent's tools as a run gets
// it. Nothing here writes the run ledger, and no tool is executed: the calls
// the model proposes are returned as they are.
import { ApplicationFailure, CancelledFailure, Context } from "@temporalio/activity";
import type { Db } from "../../lib/db/prisma";
import { ACTIVITY_ERRORS } from "../../lib/contract/definitions";
import type { PlaygroundCallOutput, PlaygroundCallRequest, PlaygroundDescribeOutput, PlaygroundDescribeRequest, PlaygroundFailedOutput } from "../../lib/playground/contract";
import type { ModelRegistry } from "../models/registry";
import { ModelCallError } from "../models/types";
import type { ToolExecutor } from "../tools/executor";
import { ImageCache, MissingImageError, withImageData } from "./image-loader";
import { withDependencyResults } from "./dependency-results";

const HEARTBEAT_EVERY_MS = 1000;

export interface PlaygroundActivityDeps {
  db: Db;
  models: ModelRegistry;
  tools: Pick<ToolExecutor, "describe">;
}

export function createPlaygroundActivities({ db, models, tools }: PlaygroundActivityDeps) {
  const images = new ImageCache();
  return {
    /** The agent's tools as the engine describes them for a run (built-ins, message_agent, MCP servers' tools). */
    async describePlaygroundTools(input: PlaygroundDescribeRequest): Promise<PlaygroundDescribeOutput> {
      const described = await tools.describe(input.agent, input.subAgents);
      return { kind: "describe", tools: described.tools, errors: described.errors };
    },

    /**
     * Asks the model once. A failure the user must fix (no API key, unknown
     * model, a missing image) is returned as `failed` with its sentence; a
     * transient one (network, 5xx, rate limit) is retried by Temporal.
     */
    async playgroundInference(input: PlaygroundCallRequest): Promise<PlaygroundCallOutput | PlaygroundFailedOutput> {
      const context = Context.current();
      const started = Date.now();
      let messages;
      try {
        messages = await withImageData(db, images, await withDependencyResults(db, input.messages));
      } catch (error) {
        if (error instanceof MissingImageError) return { kind: "failed", message: error.message };
        throw error;
      }
      const heartbeat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
      try {
        const { provider, modelName } = models.resolve(input.model);
        const response = await provider.generate(
          {
            model: input.model,
            agentName: input.agentName,
            messages,
            tools: input.tools,
            temperature: input.temperature,
            maxOutputTokens: input.maxOutputTokens,
            attempt: context.info.attempt,
            signal: context.cancellationSignal,
          },
          modelName,
        );
        return { kind: "call", content: response.content, toolCalls: response.toolCalls, usage: response.usage, finishReason: response.finishReason, latencyMs: Date.now() - started };
      } catch (error) {
        if (context.cancellationSignal.aborted) {
          const reason: unknown = context.cancellationSignal.reason;
          throw reason instanceof CancelledFailure ? reason : error;
        }
        if (error instanceof ModelCallError && !error.retryable) return { kind: "failed", message: error.message };
        if (error instanceof ModelCallError) throw ApplicationFailure.create({ type: ACTIVITY_ERRORS.model, message: error.message });
        console.error(`worker: playground call ${input.label} failed (attempt ${context.info.attempt}):`, error);
        throw ApplicationFailure.create({ type: ACTIVITY_ERRORS.infrastructure, message: "the model call failed on an internal problem (see the worker log)" });
      } finally {
        clearInterval(heartbeat);
      }
    },
  };
}

export type PlaygroundActivities = ReturnType<typeof createPlaygroundActivities>;
