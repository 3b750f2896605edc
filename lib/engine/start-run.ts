// Starting a run: which graph (a saved agent, one of its versions, or inline),
// the checks made before anything is stored (registered MCP servers, vision
// for images), the approval gate fixed at the start, then the ledger row and
// the workflow.
import { randomUUID } from "node:crypto";
import type { Db } from "../db/prisma";
import type { AgentGraph, AgentGraphInput } from "../agents/schemas";
import { defaultAgentVersion, requireValidGraph } from "../agents/repository";
import { AgentNotFound } from "../agents/errors";
import { requireRegisteredServers } from "../agents/mcp-references";
import { ValidationError } from "../errors";
import type { PersonRef, RunGate } from "../contract/workflow";
import type { ImageInput } from "../attachments/schemas";
import { agentModel, requireVision } from "../models/vision";
import { readWorkspacePolicy } from "../policy/store";
import { createRunRow, deleteRunRow } from "../run-ledger/write";
import type { EngineContext } from "./engine-context";
import { signLegacyRunStart, signRunInput, type SignedRunInput } from "./run-start-signature";

export interface StartRunInput {
  /** A saved agent graph, by name (its default version: the newest that is not a draft), or… */
  graphName?: string;
  /** A saved agent's version number, a draft's too (default: the graph's default version). */
  version?: number;
  /** Runs every agent of the graph on this model instead of its own (the version stays as saved). */
  modelOverride?: string;
  /** …an inline graph (validated here). */
  graph?: AgentGraphInput;
  task: string;
  /** Images of the task (ids of uploads, base64 or URLs): stored before the run starts, carried by reference. */
  images?: readonly ImageInput[];
  context?: Record<string, unknown>;
  startedBy?: { id: string; email: string } | null;
  /** A taped run (lib/tapes: forks, experiments): the tape its tree reuses recorded results from. */
  tape?: { tapeId: string };
  /** Runs this graph instead of the saved version's (a fork's edited prompt); the run still names the saved graph. Validated here. */
  graphOverride?: AgentGraphInput;
  /**
   * The run executes a variant of the saved version that was never saved (a fork's edited prompt or
   * model): its row names the version it derives from (`variantOfVersionId`) and never claims it
   * (`agentVersionId` null), so lists, metrics and the inbox do not show it as that version.
   */
  unsavedVariant?: boolean;
  /** Where the run comes from, on its ledger row: a fork's origin run and span (and its edit, JSON text), its experiment, its schedule or its webhook endpoint, and the version label it was started by (with the side of the label's split it drew: lib/labels). */
  origin?: { forkOfRunId?: string; forkSpanId?: string; forkEdit?: string; experimentId?: string; scheduleId?: string; webhookId?: string; label?: string; labelVariant?: string };
  /** The run id to use instead of a new one (an experiment's idempotent start); it must be `<entry agent>-<something>`. */
  runId?: string;
}

/** One saved version of an agent graph, or null. */
async function agentVersion(db: Db, name: string, version: number): Promise<{ id: string; agentName: string; graph: AgentGraph } | null> {
  const row = await db.agentVersion.findFirst({ where: { agent: { name }, version }, include: { agent: true } });
  return row ? { id: row.id, agentName: row.agent.name, graph: requireValidGraph(JSON.parse(row.graph)) } : null;
}

/** The engine client's `startRun`. */
export function createRunStarter({ db, catalog, storedImages, startWorkflow, decisionKey }: Pick<EngineContext, "db" | "catalog" | "storedImages" | "startWorkflow"> & Partial<Pick<EngineContext, "decisionKey">>) {
  async function resolveGraph(input: StartRunInput): Promise<{ graph: AgentGraph; graphName: string | null; agentVersionId: string | null }> {
    if (input.graph) return { graph: requireValidGraph(input.graph), graphName: null, agentVersionId: null };
    if (!input.graphName) throw new ValidationError([{ path: "graphName", message: "name a saved agent or pass a graph" }]);
    const stored = input.version === undefined ? await defaultAgentVersion(db, input.graphName) : await agentVersion(db, input.graphName, input.version);
    if (!stored) throw new AgentNotFound(input.graphName, input.version);
    const base = input.graphOverride ? requireValidGraph(input.graphOverride) : stored.graph;
    const graph = input.modelOverride ? { ...base, agents: base.agents.map((a) => ({ ...a, model: input.modelOverride ?? a.model })) } : base;
    return { graph, graphName: stored.agentName, agentVersionId: stored.id };
  }

  /** Who saved the version (they count as "self" for its runs' approvals), by id and email. */
  async function versionAuthor(agentVersionId: string | null): Promise<PersonRef | null> {
    if (!agentVersionId) return null;
    const version = await db.agentVersion.findUnique({ where: { id: agentVersionId }, select: { createdById: true } });
    if (!version?.createdById) return null;
    const author = await db.user.findUnique({ where: { id: version.createdById }, select: { id: true, email: true } });
    return author ?? { id: version.createdById, email: "" };
  }

  /** The run's approval gate, fixed now: the workspace policy as it stands and who counts as "self". */
  async function runGate(agentVersionId: string | null, starter: PersonRef | null): Promise<RunGate> {
    const [{ policy, revision }, author] = await Promise.all([readWorkspacePolicy(db), versionAuthor(agentVersionId)]);
    return { policy, policyRevision: revision, inheritedRules: [], starter, author };
  }

  return {
    /** Starts a run of an agent graph; returns its id (`<entry agent>-<unique>`). */
    async startRun(input: StartRunInput): Promise<{ runId: string }> {
      if (!input.task.trim()) throw new ValidationError([{ path: "task", message: "the task is empty" }]);
      const { graph, graphName, agentVersionId: savedVersionId } = await resolveGraph(input);
      const agentVersionId = input.unsavedVariant ? null : savedVersionId;
      const variant = input.unsavedVariant && savedVersionId ? { variantOfVersionId: savedVersionId } : {};
      // Only registered MCP servers run (422 naming each unregistered reference).
      await requireRegisteredServers(db, graph);
      // The entry agent reads the task: with images, its model must have vision (checked before the images are stored).
      requireVision(agentModel(graph, graph.entryAgent), input.images?.length ?? 0, catalog);
      const images = await storedImages(input.images, input.startedBy?.id ?? null);
      const runId = input.runId ?? `${graph.entryAgent}-${randomUUID()}`;
      const context = input.context ?? {};
      const startedBy = input.startedBy?.email ?? null;
      // The gate's "self" is still the saved version's author: the variant was derived from their version.
      const gate = await runGate(savedVersionId, input.startedBy ? { id: input.startedBy.id, email: input.startedBy.email } : null);
      // The row first, so the run is listed (with its version and who started it) from the start;
      // removed again when Temporal refuses the start, so nothing is half-created.
      await createRunRow(db, { id: runId, agentName: graph.entryAgent, graphName, agentVersionId, startedBy, task: input.task, context }, { ...input.origin, ...variant });
      const runInput: SignedRunInput = {
        graph,
        agentName: graph.entryAgent,
        message: input.task,
        ...(images.length ? { images } : {}),
        context,
        rootRunId: runId,
        parentRunId: null,
        depth: 0,
        conversation: null,
        startedBy,
        graphName,
        agentVersionId,
        gate,
        ...(input.tape ? { tape: { tapeId: input.tape.tapeId, path: "" } } : {}),
      };
      // Signed: the worker runs nothing of a root run whose input this does not match. The legacy proof is
      // for workers of earlier releases during a deploy (they check only it); this release's ignore it.
      const proofs = decisionKey
        ? { startProof: signRunInput(decisionKey, runId, runInput), runProof: signLegacyRunStart(decisionKey, { runId, graph, gate, startedBy, agentName: graph.entryAgent }) }
        : {};
      try {
        await startWorkflow(runId, { ...runInput, ...proofs });
      } catch (error) {
        await deleteRunRow(db, runId).catch(() => undefined);
        throw error;
      }
      return { runId };
    },
  };
}
