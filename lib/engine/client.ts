// The engine's client: what server actions, route handlers and scripts call to
// start runs and interact with them. Built from a Temporal client and the
// database; no Next-specific code, so scripts and tests use it directly.
import { randomUUID } from "node:crypto";
import {
  ServiceError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  isGrpcServiceError,
  type Client,
  type WorkflowExecutionDescription,
} from "@temporalio/client";
import { ApplicationFailure, type QueryDefinition } from "@temporalio/common";
import type { Db } from "../db/prisma";
import type { AgentGraph, AgentGraphInput } from "../agents/schemas";
import { latestAgentVersion, requireValidGraph } from "../agents/repository";
import {
  AGENT_WORKFLOW_TASK_TIMEOUT,
  AGENT_WORKFLOW_TYPE,
  APPROVAL_ERRORS,
  conversationsQuery,
  decideApprovalUpdate,
  inputQuery,
  pendingApprovalsQuery,
  snapshotQuery,
  summaryQuery,
  userMessageSignal,
} from "../contract/definitions";
import {
  planOutcomeOf,
  readEventPage,
  readMessages,
  readPlanOutcome,
  readRunRows,
  readRunSummary,
  readSpans,
  runExists,
  spanTree,
  type EventPage,
  type RunSummaryWithPlan,
} from "../run-ledger/read";
import { createRunRow, deleteRunRow } from "../run-ledger/write";
import { readVisibility } from "./visibility";
import { ApprovalAlreadyDecided, ApprovalNotFound, RunNotActive, RunNotFound } from "./errors";
import { AgentNotFound } from "../agents/errors";
import { AppError, ForbiddenError, ValidationError } from "../errors";
import { readWorkspacePolicy } from "../policy/store";
import { signedDecision } from "./decision-signature";
import { SA_AGENT_NAME, SA_PENDING_APPROVALS, SA_RUN_STATUS } from "../temporal/search-attribute-keys";
import type { ApprovalRequest, ChatMessage, RunEvent, RunSummary, TraceNode } from "../contract/types";
import type { PlanOutcome } from "../contract/plan";
import { TERMINAL_STATUSES } from "../contract/types";
import { requireRegisteredServers } from "../agents/mcp-references";
import { ENGINE_BEHAVIOUR, type AgentRunInput, type DecideApprovalInput, type PersonRef, type RunGate } from "../contract/workflow";
import type { ImageInput, ImageRef } from "../attachments/schemas";
import { resolveImageInputs } from "../attachments/store";
import type { CatalogOptions } from "../models/catalog";
import { agentModel, requireVision } from "../models/vision";

export interface StartRunInput {
  /** A saved agent graph, by name (its newest version), or… */
  graphName?: string;
  /** A saved agent's version number (default: its newest). */
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
}

export interface RunListItem {
  runId: string;
  /** The agent the run starts with (not the saved graph's name). */
  entryAgent: string | null;
  status: string;
  /** Temporal's execution status; UNKNOWN while visibility has not listed the run (just started, or past retention). */
  temporalStatus: string;
  pendingApprovals: number;
  parentRunId: string | null;
  /** How the run's last finished plan ended; null when it never finished one. */
  planOutcome: PlanOutcome | null;
  startedAt: string;
  closedAt: string | null;
}

export interface EngineDeps {
  temporal: Client;
  db: Db;
  taskQueue: string;
  /** Signs approval decisions (configuredKey(config, "approval-decisions")); without it no decision can be made. */
  decisionKey?: Buffer | null;
  /** What the deployment adds to the model catalogue (the OpenAI-compatible models with vision); default: nothing. */
  catalog?: CatalogOptions;
  /** Hosts an image URL may reach although they resolve to a private address (ZAP_EGRESS_ALLOW_HOSTS); default none. */
  egressAllowHosts?: string[];
}

/** A decision as the web server makes it: the signature and its time are added by decideApproval. */
export type DecisionInput = Omit<DecideApprovalInput, "signature" | "issuedAt">;

/** One saved version of an agent graph, or null. */
async function agentVersion(db: Db, name: string, version: number): Promise<{ id: string; agentName: string; graph: AgentGraph } | null> {
  const row = await db.agentVersion.findFirst({ where: { agent: { name }, version }, include: { agent: true } });
  return row ? { id: row.id, agentName: row.agent.name, graph: requireValidGraph(JSON.parse(row.graph)) } : null;
}

// About 20 s of retries: on an overloaded worker a run's workflow task can keep failing for seconds.
const UPDATE_ATTEMPTS = 8;

/**
 * Update failures that say nothing about the decision: the RPC timed out, or the
 * run's workflow task failed (e.g. timed out on a busy worker) while the update
 * waited. Sending the same update id again is safe; the server deduplicates it.
 */
export function isRetryableUpdateError(error: unknown): boolean {
  if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
  if (!(error instanceof ServiceError) || !isGrpcServiceError(error.cause)) return false;
  const { code, details } = error.cause;
  return code === GRPC_DEADLINE_EXCEEDED || code === GRPC_UNAVAILABLE || (code === GRPC_FAILED_PRECONDITION && /workflow task in failed state/i.test(details));
}
const GRPC_CANCELLED = 1;
const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_FAILED_PRECONDITION = 9;
const GRPC_UNAVAILABLE = 14;

/** How long a summary query may wait for a busy workflow before the ledger answers. */
const SUMMARY_QUERY_DEADLINE_MS = 1_500;

/** The query ran out of time: the server reports DEADLINE_EXCEEDED, or CANCELLED when it dropped the expired call first. */
function isDeadlineExceeded(error: unknown): boolean {
  return error instanceof ServiceError && isGrpcServiceError(error.cause) && (error.cause.code === GRPC_DEADLINE_EXCEEDED || error.cause.code === GRPC_CANCELLED);
}

function isNotFound(error: unknown): boolean {
  return error instanceof WorkflowNotFoundError || (error instanceof Error && /not found|already completed/i.test(error.message));
}

export function createEngine({ temporal, db, taskQueue, decisionKey = null, catalog = {}, egressAllowHosts = [] }: EngineDeps) {
  const handle = (runId: string) => temporal.workflow.getHandle(runId);

  /** Stores the images of a message (the claim check); the workflow gets only their references. */
  async function storedImages(images: readonly ImageInput[] | undefined, createdBy: string | null): Promise<ImageRef[]> {
    return images?.length ? resolveImageInputs(db, images, { createdBy, allowHosts: egressAllowHosts }) : [];
  }

  async function query<T>(runId: string, definition: QueryDefinition<T>): Promise<T> {
    await requireKnownRun(runId);
    try {
      return await handle(runId).query(definition);
    } catch (error) {
      if (isNotFound(error)) throw new RunNotFound(runId);
      throw error;
    }
  }

  /**
   * Every call that names a run checks it is a row of the runs table first (an
   * unknown id is a 404): other workflows in a shared namespace are never
   * queried, signalled, decided or cancelled through this client.
   */
  async function requireKnownRun(runId: string): Promise<void> {
    if (!(await runExists(db, runId))) throw new RunNotFound(runId);
  }

  async function describe(runId: string): Promise<WorkflowExecutionDescription> {
    await requireKnownRun(runId);
    try {
      return await handle(runId).describe();
    } catch (error) {
      if (isNotFound(error)) throw new RunNotFound(runId);
      throw error;
    }
  }

  async function resolveGraph(input: StartRunInput): Promise<{ graph: AgentGraph; graphName: string | null; agentVersionId: string | null }> {
    if (input.graph) return { graph: requireValidGraph(input.graph), graphName: null, agentVersionId: null };
    if (!input.graphName) throw new ValidationError([{ path: "graphName", message: "name a saved agent or pass a graph" }]);
    const stored = input.version === undefined ? await latestAgentVersion(db, input.graphName) : await agentVersion(db, input.graphName, input.version);
    if (!stored) throw new AgentNotFound(input.graphName, input.version);
    const graph = input.modelOverride ? { ...stored.graph, agents: stored.graph.agents.map((a) => ({ ...a, model: input.modelOverride ?? a.model })) } : stored.graph;
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

  async function startWorkflow(runId: string, args: AgentRunInput): Promise<void> {
    await temporal.workflow.start(AGENT_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: runId,
      args: [args],
      workflowTaskTimeout: AGENT_WORKFLOW_TASK_TIMEOUT,
      typedSearchAttributes: [
        { key: SA_AGENT_NAME, value: args.agentName },
        { key: SA_RUN_STATUS, value: "pending" },
        { key: SA_PENDING_APPROVALS, value: 0 },
      ],
    });
  }

  /** An approval the workflow no longer holds may have been decided long ago: say by whom. */
  async function decidedElsewhere(runId: string, approvalId: string, fallback: Error): Promise<Error> {
    const record = await db.approvalRecord.findUnique({ where: { id: approvalId } });
    if (!record || record.runId !== runId || record.status === "pending") return fallback;
    const by = record.decidedByEmail ? ` by ${record.decidedByEmail}` : "";
    return new ApprovalAlreadyDecided(`approval ${approvalId} is already ${record.status}${by}`);
  }

  return {
    /** Starts a run of an agent graph; returns its id (`<entry agent>-<unique>`). */
    async startRun(input: StartRunInput): Promise<{ runId: string }> {
      if (!input.task.trim()) throw new ValidationError([{ path: "task", message: "the task is empty" }]);
      const { graph, graphName, agentVersionId } = await resolveGraph(input);
      // Only registered MCP servers run (422 naming each unregistered reference).
      await requireRegisteredServers(db, graph);
      // The entry agent reads the task: with images, its model must have vision (checked before the images are stored).
      requireVision(agentModel(graph, graph.entryAgent), input.images?.length ?? 0, catalog);
      const images = await storedImages(input.images, input.startedBy?.id ?? null);
      const runId = `${graph.entryAgent}-${randomUUID()}`;
      const context = input.context ?? {};
      const startedBy = input.startedBy?.email ?? null;
      const gate = await runGate(agentVersionId, input.startedBy ? { id: input.startedBy.id, email: input.startedBy.email } : null);
      // The row first, so the run is listed (with its version and who started it) from the start;
      // removed again when Temporal refuses the start, so nothing is half-created.
      await createRunRow(db, { id: runId, agentName: graph.entryAgent, graphName, agentVersionId, startedBy, task: input.task, context });
      try {
        await startWorkflow(runId, {
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
          behaviour: ENGINE_BEHAVIOUR,
        });
      } catch (error) {
        await deleteRunRow(db, runId).catch(() => undefined);
        throw error;
      }
      return { runId };
    },

    /** The live summary from the workflow; the ledger's copy once Temporal no longer has the run. */
    /**
     * The run's summary from the workflow, or from the ledger when the workflow
     * cannot answer soon: a query waits for the workflow task in progress, and
     * a long model call (a local activity) keeps one open for up to 80% of the
     * task timeout. The ledger row is the same summary, written as it changes.
     */
    async getRun(runId: string): Promise<RunSummaryWithPlan> {
      let live: RunSummary;
      try {
        live = await temporal.withDeadline(Date.now() + SUMMARY_QUERY_DEADLINE_MS, () => query(runId, summaryQuery));
      } catch (error) {
        if (!(error instanceof RunNotFound) && !isDeadlineExceeded(error)) throw error;
        const stored = await readRunSummary(db, runId);
        if (!stored) throw error;
        return stored;
      }
      // The workflow's summary does not say how a plan ended; the ledger's row does.
      return { ...live, planOutcome: await readPlanOutcome(db, runId) };
    },
    async getHistory(runId: string): Promise<ChatMessage[]> {
      await requireKnownRun(runId);
      return readMessages(db, runId);
    },
    /** A page of events after `sinceSeq`, bounded by count and bytes. */
    async getEventPage(runId: string, sinceSeq = 0, options: { limit?: number; maxBytes?: number } = {}): Promise<EventPage> {
      await requireKnownRun(runId);
      return readEventPage(db, runId, sinceSeq, options);
    },
    async getEvents(runId: string, sinceSeq = 0, options: { limit?: number; maxBytes?: number } = {}): Promise<RunEvent[]> {
      return (await this.getEventPage(runId, sinceSeq, options)).events;
    },
    async getTrace(runId: string): Promise<TraceNode[]> {
      await requireKnownRun(runId);
      return spanTree(await readSpans(db, runId));
    },
    getConversations: (runId: string) => query(runId, conversationsQuery),
    getPendingApprovals: (runId: string) => query(runId, pendingApprovalsQuery),

    /** Yields events as they happen until the run is idle in a final state. */
    async *streamRun(runId: string, options: { sinceSeq?: number; intervalMs?: number; signal?: AbortSignal } = {}): AsyncGenerator<RunEvent> {
      let since = options.sinceSeq ?? 0;
      for (;;) {
        const page = await this.getEventPage(runId, since);
        for (const event of page.events) {
          since = event.seq;
          yield event;
        }
        if (page.hasMore) continue;
        if (page.events.length === 0) {
          const summary = await this.getRun(runId);
          if (TERMINAL_STATUSES.includes(summary.status) && summary.lastEventSeq <= since) return;
        }
        if (options.signal?.aborted) return;
        await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250));
      }
    },

    /**
     * Adds a user message to a run. A run that is still open (working or
     * waiting for a follow-up) gets a signal; a run that closed after
     * completing continues as a new execution with its carried state.
     * Images go only to a run whose entry agent's model reads them (422
     * vision_not_supported, nothing stored); `sentBy` owns the stored images.
     */
    async sendMessage(runId: string, content: string, images?: readonly ImageInput[], sentBy?: { id: string } | null): Promise<void> {
      if (!content.trim()) throw new ValidationError([{ path: "content", message: "the message is empty" }]);
      const description = await describe(runId);
      const running = description.status.name === "RUNNING";
      if (!running && description.status.name !== "COMPLETED") throw new RunNotActive(runId, description.status.name.toLowerCase());
      // Asked only when the message has images (or the run continues below): a text follow-up stays one signal.
      const original = images?.length || !running ? await query(runId, inputQuery) : null;
      if (original) requireVision(agentModel(original.graph, original.agentName, original.parentModel), images?.length ?? 0, catalog);
      const stored = await storedImages(images, sentBy?.id ?? null);
      const message = stored.length ? { content, images: stored } : { content };
      if (running) {
        await handle(runId).signal(userMessageSignal, message);
        return;
      }
      const carried = await query(runId, snapshotQuery);
      const input = original ?? (await query(runId, inputQuery));
      await startWorkflow(runId, { ...input, carried: { ...carried, inbox: [...carried.inbox, message] } });
    },

    /**
     * Approves or rejects a pending approval. The workflow records the decision
     * (approval record + audit event) before applying it, so there is nothing
     * left to write here: a crash of this process after the call loses nothing.
     */
    async decideApproval(runId: string, unsigned: DecisionInput): Promise<ApprovalRequest> {
      if (!decisionKey) throw new AppError("unavailable", 503, "Approvals cannot be decided: the server has no signing key (set ZAP_ENCRYPTION_KEY or AUTH_SECRET)");
      await requireKnownRun(runId);
      // Signed here, checked by the worker where the decision is recorded: only this server can decide.
      const decision = signedDecision(decisionKey, runId, unsigned);
      // One update id for this decision's attempts: a retry after a timeout or a failed workflow task
      // is the same update to the server (never a second decision), while a second click is a new one.
      const updateId = randomUUID();
      try {
        for (let attempt = 1; ; attempt++) {
          try {
            return await handle(runId).executeUpdate(decideApprovalUpdate, { args: [decision], updateId });
          } catch (error) {
            if (attempt >= UPDATE_ATTEMPTS || !isRetryableUpdateError(error)) throw error;
            await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 250 * 2 ** attempt)));
          }
        }
      } catch (error) {
        if (isNotFound(error)) throw await decidedElsewhere(runId, decision.approvalId, new RunNotFound(runId));
        if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
          const { type, message } = error.cause;
          if (type === APPROVAL_ERRORS.notFound) throw await decidedElsewhere(runId, decision.approvalId, new ApprovalNotFound(message));
          if (type === APPROVAL_ERRORS.alreadyDecided) throw new ApprovalAlreadyDecided(message);
          if (type === APPROVAL_ERRORS.forbidden) throw new ForbiddenError(message);
          if (type === APPROVAL_ERRORS.invalidArguments) throw new ValidationError([{ path: "editedArguments", message }], message);
        }
        throw error;
      }
    },

    /** Cancels a run, its in-flight activities and its sub-agent conversations. */
    async cancelRun(runId: string): Promise<void> {
      await requireKnownRun(runId);
      try {
        await handle(runId).cancel();
      } catch (error) {
        if (isNotFound(error)) throw new RunNotFound(runId);
        throw error;
      }
    },

    /**
     * Runs, newest first, from the run ledger (the runs table every door reads),
     * with Temporal's execution status from visibility. `graph` is the saved
     * agent graph, `entryAgent` the agent the run starts with. Fails when
     * visibility does not answer.
     */
    async listRuns(options: { graph?: string; entryAgent?: string; includeSubRuns?: boolean; pendingApprovalsOnly?: boolean; limit?: number } = {}): Promise<RunListItem[]> {
      const { rows } = await readRunRows(
        db,
        { topLevel: !options.includeSubRuns && !options.pendingApprovalsOnly, graph: options.graph, entryAgent: options.entryAgent, awaitingApproval: options.pendingApprovalsOnly },
        { take: options.limit ?? 100 },
      );
      const visibility = await readVisibility(temporal, rows.map((r) => r.id));
      return rows.map((run) => {
        const seen = visibility.get(run.id);
        return {
          runId: run.id,
          entryAgent: run.agentName,
          status: run.status,
          temporalStatus: seen?.status ?? "UNKNOWN",
          pendingApprovals: run.pendingApprovals,
          parentRunId: run.parentRunId,
          planOutcome: planOutcomeOf(run),
          startedAt: run.startedAt.toISOString(),
          closedAt: seen ? seen.closedAt : (run.endedAt?.toISOString() ?? null),
        };
      });
    },

    /**
     * Every pending approval across runs and sub-runs, oldest first. The run
     * ledger only says which runs to ask (its pending count trails the workflow:
     * a run may be listed just after its approval was decided); the run's own
     * query is the truth, so entries are kept only while their run holds them
     * pending, and each approval id appears once.
     */
    async listPendingApprovals(): Promise<ApprovalRequest[]> {
      // Runs of the runs table only, so a foreign workflow of the same type is never asked.
      const { rows } = await readRunRows(db, { awaitingApproval: true }, { take: 500 });
      const runIds = rows.map((r) => r.id);
      const lists = await Promise.all(runIds.map((id) => handle(id).query(pendingApprovalsQuery).catch((): ApprovalRequest[] => [])));
      return dedupePending(lists.flat());
    },
  };
}

export type Engine = ReturnType<typeof createEngine>;

/** Pending approvals only, one per id (the first seen wins), oldest first. */
export function dedupePending(approvals: ApprovalRequest[]): ApprovalRequest[] {
  const byId = new Map<string, ApprovalRequest>();
  for (const approval of approvals) if (approval.status === "pending" && !byId.has(approval.id)) byId.set(approval.id, approval);
  return [...byId.values()].sort((a, b) => a.requestedAt.localeCompare(b.requestedAt) || a.id.localeCompare(b.id));
}
