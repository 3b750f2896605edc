// The engine's client: what server actions, route handlers and scripts call to
// start runs and interact with them. Built from a Temporal client and the
// database; no Next-specific code, so scripts and tests use it directly.
import { randomUUID } from "node:crypto";
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client, type WorkflowExecutionDescription } from "@temporalio/client";
import { ApplicationFailure } from "@temporalio/common";
import type { Db } from "../db/prisma";
import type { AgentGraph, AgentGraphInput } from "../agents/schemas";
import { latestAgentVersion, requireValidGraph } from "../agents/repository";
import { AGENT_WORKFLOW_TASK_TIMEOUT, AGENT_WORKFLOW_TYPE, APPROVAL_ERRORS, QUERIES, SIGNALS, UPDATES } from "./definitions";
import { AgentNotFound, ApprovalAlreadyDecided, ApprovalNotFound, RunNotActive, RunNotFound } from "./errors";
import { ForbiddenError, ValidationError } from "../errors";
import { SA_AGENT_NAME, SA_PARENT_RUN_ID, SA_PENDING_APPROVALS, SA_RUN_STATUS } from "../temporal/search-attribute-keys";
import type { ApprovalRequest, ChatMessage, Conversation, RunEvent, RunSummary, TraceNode } from "./types";
import { TERMINAL_STATUSES } from "./types";
import type { AgentRunInput, CarriedState, DecideApprovalInput } from "./workflow-types";

export interface StartRunInput {
  /** A saved agent (its newest version), or… */
  agentName?: string;
  /** …an inline graph (validated here). */
  graph?: AgentGraphInput;
  task: string;
  context?: Record<string, unknown>;
  startedBy?: { id: string; email: string } | null;
}

export interface RunListItem {
  runId: string;
  agentName: string | null;
  status: string;
  temporalStatus: string;
  pendingApprovals: number;
  parentRunId: string | null;
  startedAt: string;
  closedAt: string | null;
}

export interface EngineDeps {
  temporal: Client;
  db: Db;
  taskQueue: string;
}

function isNotFound(error: unknown): boolean {
  return error instanceof WorkflowNotFoundError || (error instanceof Error && /not found|already completed/i.test(error.message));
}

export function createEngine({ temporal, db, taskQueue }: EngineDeps) {
  const handle = (runId: string) => temporal.workflow.getHandle(runId);

  async function query<T>(runId: string, name: string, ...args: unknown[]): Promise<T> {
    try {
      return await handle(runId).query<T, unknown[]>(name, ...args);
    } catch (error) {
      if (isNotFound(error)) throw new RunNotFound(runId);
      throw error;
    }
  }

  async function describe(runId: string): Promise<WorkflowExecutionDescription> {
    try {
      return await handle(runId).describe();
    } catch (error) {
      if (isNotFound(error)) throw new RunNotFound(runId);
      throw error;
    }
  }

  async function resolveGraph(input: StartRunInput): Promise<AgentGraph> {
    if (input.graph) return requireValidGraph(input.graph);
    if (!input.agentName) throw new ValidationError([{ path: "agentName", message: "name an agent or pass a graph" }]);
    const stored = await latestAgentVersion(db, input.agentName);
    if (!stored) throw new AgentNotFound(input.agentName);
    return stored.graph;
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

  return {
    /** Starts a run of an agent graph; returns its id (`<entry agent>-<unique>`). */
    async startRun(input: StartRunInput): Promise<{ runId: string }> {
      if (!input.task.trim()) throw new ValidationError([{ path: "task", message: "the task is empty" }]);
      const graph = await resolveGraph(input);
      const runId = `${graph.entryAgent}-${randomUUID()}`;
      await startWorkflow(runId, {
        graph,
        agentName: graph.entryAgent,
        message: input.task,
        context: input.context ?? {},
        rootRunId: runId,
        parentRunId: null,
        depth: 0,
        conversation: null,
        startedBy: input.startedBy?.email ?? null,
      });
      return { runId };
    },

    getRun: (runId: string) => query<RunSummary>(runId, QUERIES.summary),
    getHistory: (runId: string) => query<ChatMessage[]>(runId, QUERIES.history),
    getEvents: (runId: string, sinceSeq = 0) => query<RunEvent[]>(runId, QUERIES.eventsSince, sinceSeq),
    getTrace: (runId: string) => query<TraceNode[]>(runId, QUERIES.trace),
    getConversations: (runId: string) => query<Conversation[]>(runId, QUERIES.conversations),
    getPendingApprovals: (runId: string) => query<ApprovalRequest[]>(runId, QUERIES.pendingApprovals),

    /** Yields events as they happen until the run is idle in a final state. */
    async *streamRun(runId: string, options: { sinceSeq?: number; intervalMs?: number; signal?: AbortSignal } = {}): AsyncGenerator<RunEvent> {
      let since = options.sinceSeq ?? 0;
      for (;;) {
        const events = await query<RunEvent[]>(runId, QUERIES.eventsSince, since);
        for (const event of events) {
          since = event.seq;
          yield event;
        }
        if (events.length === 0) {
          const summary = await query<RunSummary>(runId, QUERIES.summary);
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
     */
    async sendMessage(runId: string, content: string): Promise<void> {
      if (!content.trim()) throw new ValidationError([{ path: "content", message: "the message is empty" }]);
      const description = await describe(runId);
      if (description.status.name === "RUNNING") {
        await handle(runId).signal(SIGNALS.userMessage, { content });
        return;
      }
      if (description.status.name !== "COMPLETED") throw new RunNotActive(runId, description.status.name.toLowerCase());
      const [carried, original] = await Promise.all([query<CarriedState>(runId, QUERIES.snapshot), query<AgentRunInput>(runId, QUERIES.input)]);
      await startWorkflow(runId, { ...original, carried: { ...carried, inbox: [...carried.inbox, { content }] } });
    },

    /** Approves or rejects a pending approval; the decision is audited. */
    async decideApproval(runId: string, decision: DecideApprovalInput): Promise<ApprovalRequest> {
      let approval: ApprovalRequest;
      try {
        approval = await handle(runId).executeUpdate<ApprovalRequest, [DecideApprovalInput]>(UPDATES.decideApproval, { args: [decision] });
      } catch (error) {
        if (isNotFound(error)) throw new RunNotFound(runId);
        if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
          const { type, message } = error.cause;
          if (type === APPROVAL_ERRORS.notFound) throw new ApprovalNotFound(message);
          if (type === APPROVAL_ERRORS.alreadyDecided) throw new ApprovalAlreadyDecided(message);
          if (type === APPROVAL_ERRORS.forbidden) throw new ForbiddenError(message);
          if (type === APPROVAL_ERRORS.invalidArguments) throw new ValidationError([{ path: "editedArguments", message }], message);
        }
        throw error;
      }
      await db.auditEvent.create({
        data: {
          actorId: decision.decidedBy.id,
          action: decision.approved ? "approval.approved" : "approval.rejected",
          target: `${runId}/${approval.id}`,
          details: JSON.stringify({ tool: approval.toolName, reason: decision.reason ?? null, edited: Boolean(decision.editedArguments) }),
        },
      });
      return approval;
    },

    /** Cancels a run, its in-flight activities and its sub-agent conversations. */
    async cancelRun(runId: string): Promise<void> {
      try {
        await handle(runId).cancel();
      } catch (error) {
        if (isNotFound(error)) throw new RunNotFound(runId);
        throw error;
      }
    },

    /** Runs, newest first, from Temporal's visibility store. */
    async listRuns(options: { agentName?: string; includeSubRuns?: boolean; pendingApprovalsOnly?: boolean; limit?: number } = {}): Promise<RunListItem[]> {
      const clauses = [`WorkflowType = '${AGENT_WORKFLOW_TYPE}'`];
      if (options.agentName) clauses.push(`ZapAgentName = '${options.agentName.replace(/'/g, "")}'`);
      if (options.pendingApprovalsOnly) clauses.push("ZapPendingApprovals > 0", "ExecutionStatus = 'Running'");
      const items: RunListItem[] = [];
      for await (const wf of temporal.workflow.list({ query: clauses.join(" AND "), pageSize: 100 })) {
        const attrs = wf.typedSearchAttributes;
        const parentRunId = attrs.get(SA_PARENT_RUN_ID) ?? null;
        if (parentRunId && !options.includeSubRuns && !options.pendingApprovalsOnly) continue;
        items.push({
          runId: wf.workflowId,
          agentName: attrs.get(SA_AGENT_NAME) ?? null,
          status: attrs.get(SA_RUN_STATUS) ?? "pending",
          temporalStatus: wf.status.name,
          pendingApprovals: attrs.get(SA_PENDING_APPROVALS) ?? 0,
          parentRunId,
          startedAt: wf.startTime.toISOString(),
          closedAt: wf.closeTime?.toISOString() ?? null,
        });
        if (items.length >= (options.limit ?? 100)) break;
      }
      return items;
    },

    /** Every pending approval across runs and sub-runs, oldest first. */
    async listPendingApprovals(): Promise<ApprovalRequest[]> {
      const runs = await this.listRuns({ pendingApprovalsOnly: true, limit: 500 });
      const lists = await Promise.all(runs.map((r) => query<ApprovalRequest[]>(r.runId, QUERIES.pendingApprovals).catch(() => [])));
      return lists.flat().sort((a, b) => a.requestedAt.localeCompare(b.requestedAt));
    },
  };
}

export type Engine = ReturnType<typeof createEngine>;
