// What the parts of the engine client share: its dependencies (defaults filled
// in) and the steps every operation on a run goes through — the runs-table
// check, queries and descriptions that map a vanished workflow to a 404, reads
// that ask the workflow within a deadline and fall back to the run ledger, the
// claim check for images, and how a run's workflow is started.
import type { Client, WorkflowExecutionDescription, WorkflowHandle } from "@temporalio/client";
import type { QueryDefinition } from "@temporalio/common";
import type { Db } from "../db/prisma";
import { AGENT_WORKFLOW_TASK_TIMEOUT, AGENT_WORKFLOW_TYPE } from "../contract/definitions";
import type { AgentRunInput } from "../contract/workflow";
import type { ImageInput, ImageRef } from "../attachments/schemas";
import { resolveImageInputs } from "../attachments/store";
import type { CatalogOptions } from "../models/catalog";
import { runExists } from "../run-ledger/read";
import { SA_AGENT_NAME, SA_PENDING_APPROVALS, SA_RUN_STATUS } from "../temporal/search-attribute-keys";
import { RunNotFound } from "./errors";
import { isNotFound } from "./temporal-errors";

/** The memo key that holds a run's follow-up policy (limits.followUps) as it started. */
export const FOLLOW_UPS_MEMO = "followUps";
import { QUERY_DEADLINE_MS, logLedgerFallback, withQueryDeadline } from "./query-deadline";

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

export interface EngineContext {
  temporal: Client;
  db: Db;
  decisionKey: Buffer | null;
  catalog: CatalogOptions;
  /** The run's workflow (its id is the run id); unchecked, so callers check the run is known first. */
  handle(runId: string): WorkflowHandle;
  /**
   * Every call that names a run checks it is a row of the runs table first (an
   * unknown id is a 404): other workflows in a shared namespace are never
   * queried, signalled, decided or cancelled through this client.
   */
  requireKnownRun(runId: string): Promise<void>;
  /** Queries a known run's workflow; a workflow Temporal no longer has is RunNotFound. */
  query<T>(runId: string, definition: QueryDefinition<T>): Promise<T>;
  /**
   * A read that wants the workflow's live answer: asks a known run's workflow
   * within QUERY_DEADLINE_MS, and on any failure — Temporal no longer has it,
   * its workflow task failed, no worker answers, the deadline passed — returns
   * `fromLedger()` instead (logged). Only an unknown run id is an error.
   */
  queryOrLedger<T>(runId: string, definition: QueryDefinition<T>, fromLedger: () => Promise<T>): Promise<T>;
  /** Describes a known run's workflow; a workflow Temporal no longer has is RunNotFound. */
  describe(runId: string): Promise<WorkflowExecutionDescription>;
  /** Stores the images of a message (the claim check); the workflow gets only their references. */
  storedImages(images: readonly ImageInput[] | undefined, createdBy: string | null): Promise<ImageRef[]>;
  /** Starts the run's workflow execution (a new run, or a closed run continuing with a message). */
  startWorkflow(runId: string, args: AgentRunInput): Promise<void>;
}

/** The shared part of the engine client, built once per createEngine. */
export function createEngineContext({ temporal, db, taskQueue, decisionKey = null, catalog = {}, egressAllowHosts = [] }: EngineDeps): EngineContext {
  const handle = (runId: string) => temporal.workflow.getHandle(runId);

  async function requireKnownRun(runId: string): Promise<void> {
    if (!(await runExists(db, runId))) throw new RunNotFound(runId);
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

  async function queryOrLedger<T>(runId: string, definition: QueryDefinition<T>, fromLedger: () => Promise<T>): Promise<T> {
    await requireKnownRun(runId);
    try {
      return await withQueryDeadline(temporal, runId, QUERY_DEADLINE_MS, () => handle(runId).query(definition));
    } catch (error) {
      logLedgerFallback(runId, definition.name, error);
      return fromLedger();
    }
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

  async function storedImages(images: readonly ImageInput[] | undefined, createdBy: string | null): Promise<ImageRef[]> {
    return images?.length ? resolveImageInputs(db, images, { createdBy, allowHosts: egressAllowHosts }) : [];
  }

  async function startWorkflow(runId: string, args: AgentRunInput): Promise<void> {
    await temporal.workflow.start(AGENT_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: runId,
      args: [args],
      workflowTaskTimeout: AGENT_WORKFLOW_TASK_TIMEOUT,
      // Read by sendMessage from a describe, which needs no worker: only a graph that refuses or interrupts
      // mid-run messages needs the workflow's answer (an update); the default queues them with a signal.
      memo: { [FOLLOW_UPS_MEMO]: args.graph.limits.followUps },
      typedSearchAttributes: [
        { key: SA_AGENT_NAME, value: args.agentName },
        { key: SA_RUN_STATUS, value: "pending" },
        { key: SA_PENDING_APPROVALS, value: 0 },
      ],
    });
  }

  return { temporal, db, decisionKey, catalog, handle, requireKnownRun, query, queryOrLedger, describe, storedImages, startWorkflow };
}
