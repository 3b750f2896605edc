import "server-only";
// "Fork from here": the origin's task started again on a saved version (the
// origin's, or another), every step that ended before the chosen one reused
// from the origin's recording (lib/forks/build-tape.ts), the chosen step live
// or edited, and everything after it live. Refusals name the problem: an
// unknown run or step (404), a run of an inline graph (422), an agent deleted
// or archived (409), a version that does not exist (422), an edit on the wrong
// kind of step or a prompt for an agent the version lacks (422).
// An edit is marked as one end to end: the tape entry (who, when), hence the
// replayed span, and the run row (`forkEdit`); an edited prompt or another
// model makes the run an unsaved variant, which never claims the saved version.
import { requireValidGraph } from "../../agents/repository";
import type { AgentGraph } from "../../agents/schemas";
import { appendAudit } from "../../audit/write";
import type { SessionUser } from "../../auth/server/session";
import { getDb } from "../../db/server/db";
import type { Db } from "../../db/prisma";
import { RunNotFound } from "../../engine/errors";
import { getEngine } from "../../engine/server/engine";
import { ConflictError, ValidationError } from "../../errors";
import { operation } from "../../http/server/operation";
import { readForkSource } from "../../run-ledger/forks";
import { startTapedRunWith, type TapedRunDeps } from "../../tapes/server/start-taped-run";
import type { TapeEntry } from "../../tapes/schemas";
import { buildForkTape, forkSpanOf } from "../build-tape";
import { checkSpendLimits } from "../../spend-limits/server/spend";
import { forkRunSchema, type ForkEdit, type ForkRunInput, type ForkRunResult } from "../schemas";

/** The saved version a fork runs, with the checks that make a fork of it impossible. */
async function forkVersion(db: Db, graphName: string, originVersionId: string | null, version: number | undefined): Promise<{ version: number; graph: AgentGraph }> {
  const agent = await db.agent.findUnique({ where: { name: graphName }, select: { id: true, archivedAt: true } });
  if (!agent) throw new ConflictError(`The saved agent "${graphName}" no longer exists, so its runs cannot be forked`);
  if (agent.archivedAt) throw new ConflictError(`The saved agent "${graphName}" is archived; restore it to fork its runs`);
  const row =
    version !== undefined
      ? await db.agentVersion.findFirst({ where: { agentId: agent.id, version } })
      : originVersionId
        ? await db.agentVersion.findUnique({ where: { id: originVersionId } })
        : null;
  if (!row) {
    if (version !== undefined) throw new ValidationError([{ path: "version", message: `"${graphName}" has no version ${version}` }], `The saved agent "${graphName}" has no version ${version}`);
    throw new ConflictError(`The version of "${graphName}" this run executed no longer exists; choose a version to fork onto`);
  }
  return { version: row.version, graph: requireValidGraph(JSON.parse(row.graph)) };
}

/** A fork of a fork whose tape carries an edit made earlier: the row says so too. */
function inheritedEdit(entries: TapeEntry[]): ForkEdit | null {
  for (const entry of entries) {
    if (entry.kind === "tool_at" && entry.edited) return { kind: "tool_result", step: `tool ${entry.tool}`, ...entry.edited, inherited: true };
    if (entry.kind === "model" && entry.edited) return { kind: "model_output", step: `inference ${entry.response.model}`, ...entry.edited, inherited: true };
  }
  return null;
}

export async function forkRunWith(deps: TapedRunDeps, input: ForkRunInput, user: SessionUser): Promise<ForkRunResult> {
  const { db } = deps;
  const source = await readForkSource(db, input.runId);
  if (!source) throw new RunNotFound(input.runId);
  const span = forkSpanOf(source, input);
  const { root } = source;
  if (!root.graphName) throw new ValidationError([{ path: "runId", message: "the run executed an inline graph, not a saved version" }], `Run ${root.id} ran an inline graph with no saved version; only runs of a saved agent can be forked`);
  // A fork of an unsaved variant starts from the saved version the variant was derived from.
  const { version, graph } = await forkVersion(db, root.graphName, root.agentVersionId ?? root.variantOfVersionId, input.version);
  let graphOverride: AgentGraph | undefined;
  if (input.prompt) {
    const { agent, systemPrompt } = input.prompt;
    if (!graph.agents.some((a) => a.name === agent)) {
      throw new ValidationError([{ path: "prompt.agent", message: `version ${version} of "${root.graphName}" has no agent "${agent}"` }], `Version ${version} of "${root.graphName}" has no agent "${agent}"`);
    }
    graphOverride = { ...graph, agents: graph.agents.map((a) => (a.name === agent ? { ...a, systemPrompt } : a)) };
  }
  const editor = { by: user.email, at: new Date().toISOString() };
  const entries = buildForkTape(source, input, editor);
  // What the fork reuses from the recording: an entry someone wrote (the edit, or one inherited) is no replayed step.
  const replayedSteps = entries.filter((e) => !("edited" in e && e.edited)).length;
  const edited = input.editedToolResult !== undefined ? "tool_result" : input.editedModelOutput !== undefined ? "model_output" : null;
  const forkEdit: ForkEdit | null = edited ? { kind: edited, runId: input.runId, spanId: input.spanId, step: `${span.kind} ${span.name}`, ...editor } : inheritedEdit(entries);
  let context: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(root.context);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) context = parsed as Record<string, unknown>;
  } catch {
    // A context the ledger cannot parse starts the fork without one.
  }
  // A fork is a new run of the graph by this user: refused (402, naming the limit) like any run start; nothing written.
  await checkSpendLimits(db, { graph: root.graphName, userId: user.id });
  const { runId, tapeId } = await startTapedRunWith(deps, {
    graphName: root.graphName,
    version,
    task: root.task,
    context,
    tape: { entries, settings: { live: "all", approvals: "inbox" }, purpose: "fork" },
    startedBy: user,
    origin: { forkOf: { runId: input.runId, spanId: input.spanId }, ...(forkEdit ? { forkEdit: JSON.stringify(forkEdit) } : {}) },
    ...(graphOverride ? { graphOverride } : {}),
    ...(graphOverride || input.model ? { unsavedVariant: true } : {}),
    ...(input.model ? { modelOverride: input.model } : {}),
  });
  await appendAudit(db, {
    actorId: user.id,
    action: "run.forked",
    target: runId,
    details: {
      origin: input.runId,
      span: input.spanId,
      step: `${span.kind} ${span.name}`,
      graph: root.graphName,
      version,
      replayedSteps,
      ...(input.model ? { model: input.model } : {}),
      ...(input.prompt ? { promptOf: input.prompt.agent } : {}),
      ...(edited ? { edited } : {}),
      ...(graphOverride || input.model ? { unsavedVariant: true } : {}),
    },
  });
  return { runId, tapeId, replayedSteps, compareUrl: `/runs/compare?a=${encodeURIComponent(root.id)}&b=${encodeURIComponent(runId)}` };
}

/** Fork a run at a step: the span details' "Fork from here", `POST /api/runs/:runId/fork` and `client.forkRun`. */
export const forkRunOperation = operation({
  name: "fork-run",
  permission: "runs:launch",
  input: forkRunSchema,
  run: ({ input, user }) => forkRunWith({ db: getDb(), engine: getEngine() }, input, user),
});
