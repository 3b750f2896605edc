import "server-only";
// Runs one model call alone (issue 27 §1): no run is created and no tool is
// executed; the calls the model proposes come back as proposals. The worker
// runs it with the engine's model code (worker/activities/playground.ts),
// bounded by the run timeout a model call of that run had. Audited as
// playground.called with the model and token counts, never the messages.
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { appendAudit } from "../../audit/write";
import { AppError } from "../../errors";
import { readStoredGraph } from "../../agents/server/store";
import { readRunRow } from "../../run-ledger/read";
import { costAt, type PriceBook } from "../../runs/pricing";
import { supportsVision, type CatalogOptions } from "../../models/catalog";
import type { PlaygroundCallOutput, PlaygroundFailedOutput } from "../contract";
import { limitProblem } from "../messages";
import type { playgroundCallSchema, PlaygroundResult } from "../schemas";
import { executePlayground, type PlaygroundDeps } from "./temporal";
import { checkSpendLimits } from "../../spend-limits/server/spend";

/** A web request waits at most this long, whatever the run timeout (a model call rarely takes a minute). */
export const PLAYGROUND_WAIT_MAX_SECONDS = 300;
const DEFAULT_RUN_TIMEOUT_SECONDS = 3600;

export type CallDeps = PlaygroundDeps & { db: Db; prices: PriceBook; catalog?: CatalogOptions };

/** The run timeout of the run the call came from (a model call ends at it), capped at the playground's wait. */
async function timeoutSecondsFor(db: Db, run: { agentVersionId: string | null } | null): Promise<number> {
  let seconds = DEFAULT_RUN_TIMEOUT_SECONDS;
  if (run?.agentVersionId) {
    const version = await db.agentVersion.findUnique({ where: { id: run.agentVersionId }, select: { graph: true } });
    if (version) seconds = readStoredGraph(version.graph, run.agentVersionId).limits.runTimeoutSeconds;
  }
  return Math.min(seconds, PLAYGROUND_WAIT_MAX_SECONDS);
}

export async function playgroundCall(deps: CallDeps, user: { id: string }, input: z.output<typeof playgroundCallSchema>): Promise<PlaygroundResult> {
  const problem = limitProblem(input.messages, input.tools);
  if (problem?.status === 413) throw new AppError("payload_too_large", 413, problem.message);
  if (problem) throw new AppError("validation_failed", 422, problem.message, [{ path: "messages", message: problem.message }]);
  const images = input.messages.reduce((n, m) => n + (m.role === "user" ? (m.images?.length ?? 0) : 0), 0);
  if (images > 0 && !supportsVision(input.model, deps.catalog)) {
    throw new AppError("vision_not_supported", 422, `${input.model} does not read images, and this conversation has ${images}: choose a model that does, or remove the images`);
  }
  // A call costs money like a run's: refused (402, naming the limit) as a run start of the call's graph by this user
  // is, when a spend limit of the workspace, that graph, the user or the request's API key is reached. Nothing is written.
  const run = input.runId ? await readRunRow(deps.db, input.runId) : null;
  await checkSpendLimits(deps.db, { graph: run?.graphName ?? "", userId: user.id });
  const timeoutSeconds = await timeoutSecondsFor(deps.db, run);
  const output = await executePlayground<PlaygroundCallOutput | PlaygroundFailedOutput>(
    deps,
    {
      kind: "call",
      label: input.runId ? `${input.runId}/${input.spanId ?? "?"}` : "playground",
      agentName: input.agentName,
      model: input.model,
      temperature: input.temperature,
      maxOutputTokens: input.maxOutputTokens,
      messages: input.messages,
      tools: input.tools,
      timeoutMs: timeoutSeconds * 1000,
    },
    timeoutSeconds * 1000,
    `The model call on ${input.model}`,
  );
  const failed = output.kind === "failed";
  await appendAudit(deps.db, {
    actorId: user.id,
    action: "playground.called",
    target: input.runId ? `${input.runId}/${input.spanId ?? ""}` : null,
    details: {
      model: input.model,
      messages: input.messages.length,
      ...(failed ? { ok: false } : { ok: true, inputTokens: output.usage.inputTokens, outputTokens: output.usage.outputTokens, proposedToolCalls: output.toolCalls.length }),
    },
  });
  if (failed) throw new AppError("unavailable", 503, `The model call failed: ${output.message}`);
  return {
    model: input.model,
    content: output.content,
    toolCalls: output.toolCalls,
    usage: output.usage,
    costUsd: costAt(deps.prices, input.model, output.usage, new Date()),
    latencyMs: output.latencyMs,
    finishReason: output.finishReason,
    at: new Date().toISOString(),
  };
}
