// The one start of a saved agent's run by a person, whoever's door it came
// through: the run dialog and POST /api/runs (lib/runs/server/launch.ts, as the
// signed-in user) and a schedule's firing (lib/schedules/fire.ts, in the
// worker, as the schedule's owner). It checks the context against the
// version's prompts and the spend limits (lib/spend-limits), starts the run through the engine (run row, approval
// gate, signed input) and writes its "run.started" audit row. A run started by
// version label takes the label's version (or its split's, for the split's share:
// lib/labels), resolved here once; its row records the label and the side drawn.
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Db } from "../db/prisma";
import type { Engine } from "../engine/client";
import { appendAudit } from "../audit/write";
import { agentGraphSchema } from "../agents/schemas";
import { NOT_DRAFT } from "../agents/repository";
import { AgentNotFound } from "../agents/errors";
import { ValidationError } from "../errors";
import { missingPlaceholders } from "./placeholders";
import type { launchRunSchema } from "./schemas";
import { checkSpendLimits } from "../spend-limits/server/spend";
import { resolveLabel, type LabelResolution } from "../labels/resolve";

export interface LaunchStarter {
  id: string;
  email: string;
}

export interface LaunchExtras {
  /** The schedule that started the run (its row links to it). */
  scheduleId?: string;
  /** The inbound webhook endpoint whose delivery started the run (its row links to it). */
  webhookId?: string;
  /** A run id chosen by the caller from the entry agent (a schedule's firing: the same firing, the same run). */
  runIdFor?: (entryAgent: string) => string;
}

/** Checks the context against the version's prompts (default: the graph's default version, never a draft), starts the run and audits it. */
export async function launchSavedRun(
  deps: { db: Db; engine: Pick<Engine, "startRun"> },
  input: z.output<typeof launchRunSchema>,
  starter: LaunchStarter,
  extras: LaunchExtras = {},
): Promise<{ runId: string }> {
  // The run's own draw key for a conversation-sticky split: the random part of its id, when this start chooses the id.
  const runKey = randomUUID();
  const labelled: LabelResolution | null = input.label ? await resolveLabel(deps.db, input.graph, input.label, input.context, runKey) : null;
  const version = labelled?.version ?? input.version;
  const row = await deps.db.agentVersion.findFirst({
    where: { agent: { name: input.graph }, ...(version ? { version } : NOT_DRAFT) },
    orderBy: { version: "desc" },
  });
  // The engine's error, so a script starting the same run through the client reads the same sentence.
  if (!row) throw new AgentNotFound(input.graph, version);
  const graph = agentGraphSchema.safeParse(JSON.parse(row.graph));
  if (graph.success) {
    const missing = missingPlaceholders(graph.data.agents.map((a) => a.systemPrompt), input.context);
    if (missing.length) throw new ValidationError(missing.map((path) => ({ path, message: "the prompts use this placeholder; give it a value" })), `The context is missing ${missing.join(", ")}`);
  }
  // Refused (402, naming the limit) when a spend limit of the workspace, the graph, the starter or the request's API key is reached.
  await checkSpendLimits(deps.db, { graph: input.graph, userId: starter.id });
  const runId = extras.runIdFor && graph.success ? extras.runIdFor(graph.data.entryAgent) : labelled && graph.success ? `${graph.data.entryAgent}-${runKey}` : undefined;
  const origin = {
    ...(extras.scheduleId ? { scheduleId: extras.scheduleId } : {}),
    ...(extras.webhookId ? { webhookId: extras.webhookId } : {}),
    ...(labelled ? { label: labelled.label, labelVariant: labelled.variant } : {}),
  };
  const started = await deps.engine.startRun({
    graphName: input.graph,
    version: row.version,
    ...(input.model ? { modelOverride: input.model } : {}),
    task: input.task,
    ...(input.images?.length ? { images: input.images } : {}),
    context: input.context,
    startedBy: { id: starter.id, email: starter.email },
    ...(Object.keys(origin).length ? { origin } : {}),
    ...(runId ? { runId } : {}),
  });
  await appendAudit(deps.db, {
    actorId: starter.id,
    action: "run.started",
    target: started.runId,
    // How many images, never their bytes (they are in the attachment store, referenced by the run's messages).
    details: {
      graph: input.graph,
      version: row.version,
      ...(input.model ? { model: input.model } : {}),
      ...(input.images?.length ? { images: input.images.length } : {}),
      ...(extras.scheduleId ? { scheduleId: extras.scheduleId } : {}),
      ...(extras.webhookId ? { webhookId: extras.webhookId } : {}),
      ...(labelled ? { label: labelled.label, labelVariant: labelled.variant } : {}),
    },
  });
  return started;
}
