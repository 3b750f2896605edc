// Acting on a run that exists: a user message (an update to an open run, or a
// signal to an execution without the update's handler; a new execution for one
// that completed) and cancellation.
import { randomUUID } from "node:crypto";
import { WorkflowUpdateFailedError } from "@temporalio/client";
import { ApplicationFailure } from "@temporalio/common";
import { FOLLOW_UP_ERRORS, inputQuery, snapshotQuery, userMessageSignal, userMessageUpdate } from "../contract/definitions";
import type { UserMessageSignal } from "../contract/workflow";
import { ValidationError } from "../errors";
import type { ImageInput } from "../attachments/schemas";
import { agentModel, requireVision } from "../models/vision";
import { FOLLOW_UPS_MEMO, type EngineContext } from "./engine-context";
import { RunBusy, RunNotActive, RunNotFound, RunWorkerSilent } from "./errors";
import { isNotFound, isRetryableUpdateError } from "./temporal-errors";
import { signCarriedState } from "./run-start-signature";

// About 20 s of retries under one update id, as for approval decisions: a busy worker's task can fail for seconds.
const UPDATE_ATTEMPTS = 8;
/** The longest a message to a `reject` or `interrupt` run waits for its worker to take it. */
const UPDATE_DEADLINE_MS = 20_000;

/** The follow-up policy the run started with (its memo), or null for a run started before the memo was written. */
export function followUpPolicyOfRun(memo: Record<string, unknown> | undefined): string | null {
  const policy = memo?.[FOLLOW_UPS_MEMO];
  return typeof policy === "string" ? policy : null;
}
/** How long a message waits for a closing run to end before it is refused as not active. */
const CLOSING_WAIT_MS = 30_000;

/** What the workflow says when an execution has no handler for an update (one started before the handler existed). */
export function isMissingUpdateHandler(error: unknown): boolean {
  return error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure && /no registered handler for update/i.test(error.cause.message);
}

/**
 * Sends a message to an open run as the sendUserMessage update, whose validator applies the graph's
 * follow-up policy atomically in the workflow (worker/workflows/follow-ups.ts): a refusal is RunBusy (409).
 * An execution without the handler (a build before it) gets the userMessage signal, as before.
 */
async function messageOpenRun(temporal: EngineContext["temporal"], handle: EngineContext["handle"], runId: string, message: UserMessageSignal): Promise<"delivered" | "closed"> {
  const updateId = randomUUID();
  // An update waits for a worker to take it: with none running it would wait for ever, so all attempts share a deadline.
  const deadline = Date.now() + UPDATE_DEADLINE_MS;
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await temporal.withDeadline(deadline, () => handle(runId).executeUpdate(userMessageUpdate, { args: [message], updateId }));
        return "delivered";
      } catch (error) {
        if (Date.now() >= deadline) throw new RunWorkerSilent(runId, UPDATE_DEADLINE_MS / 1000);
        if (attempt >= UPDATE_ATTEMPTS || !isRetryableUpdateError(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 250 * 2 ** attempt)));
      }
    }
  } catch (error) {
    if (isMissingUpdateHandler(error)) {
      await handle(runId).signal(userMessageSignal, message);
      return "delivered";
    }
    const refusal = error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure ? error.cause : null;
    if (refusal?.type === FOLLOW_UP_ERRORS.busy) throw new RunBusy(refusal.message);
    if (refusal?.type === FOLLOW_UP_ERRORS.closing) {
      // Closing takes its last ledger write: wait for the execution to end (bounded), then the caller continues it.
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise((resolve) => (timer = setTimeout(resolve, CLOSING_WAIT_MS)));
      await Promise.race([handle(runId).result().catch(() => undefined), waited]).finally(() => clearTimeout(timer));
      return "closed";
    }
    // The run closed between the describe and the update (its follow-up window ended): the caller continues it.
    if (isNotFound(error)) return "closed";
    throw error;
  }
}

/** Queues a message with the userMessage signal; false when the run closed since it was described (the caller continues it). */
async function signalOpenRun(handle: EngineContext["handle"], runId: string, message: UserMessageSignal): Promise<boolean> {
  try {
    await handle(runId).signal(userMessageSignal, message);
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

/** The engine client's `sendMessage` and `cancelRun`. */
export function createRunControl({
  temporal,
  catalog,
  handle,
  query,
  describe,
  requireKnownRun,
  storedImages,
  startWorkflow,
  decisionKey,
}: Pick<EngineContext, "temporal" | "catalog" | "handle" | "query" | "describe" | "requireKnownRun" | "storedImages" | "startWorkflow"> & Partial<Pick<EngineContext, "decisionKey">>) {
  return {
    /**
     * Adds a user message to a run. A run that is still open (working or
     * waiting for a follow-up) gets it under its graph's follow-up policy
     * (queued, refused with RunBusy, or interrupting the turn); a run that closed after
     * completing continues as a new execution with its carried state.
     * Images go only to a run whose entry agent's model reads them (422
     * vision_not_supported, nothing stored); `sentBy` owns the stored images
     * and, with its email, is the message's sender.
     */
    async sendMessage(runId: string, content: string, images?: readonly ImageInput[], sentBy?: { id: string; email?: string } | null): Promise<void> {
      if (!content.trim()) throw new ValidationError([{ path: "content", message: "the message is empty" }]);
      const description = await describe(runId);
      const running = description.status.name === "RUNNING";
      if (!running && description.status.name !== "COMPLETED") throw new RunNotActive(runId, description.status.name.toLowerCase());
      // Asked only when the message has images (or the run continues below): a text follow-up stays one signal.
      const original = images?.length || !running ? await query(runId, inputQuery) : null;
      if (original) requireVision(agentModel(original.graph, original.agentName, original.parentModel), images?.length ?? 0, catalog);
      const stored = await storedImages(images, sentBy?.id ?? null);
      // The sender travels with the message: the calls that follow it count them as "self" for their approvals.
      const sender = sentBy?.email ? { sender: { id: sentBy.id, email: sentBy.email } } : {};
      const message = stored.length ? { content, images: stored, ...sender } : { content, ...sender };
      // Only a graph that refuses or interrupts mid-run messages needs the workflow's answer (an update, which waits
      // for a worker). Every other run gets the signal, which Temporal keeps in the run's history while its workers
      // restart, so a follow-up is accepted whether or not a worker is up (runs started before the memo included).
      const policy = followUpPolicyOfRun(description.memo);
      if (running) {
        const delivered = policy === "reject" || policy === "interrupt" ? (await messageOpenRun(temporal, handle, runId, message)) === "delivered" : await signalOpenRun(handle, runId, message);
        if (delivered) return;
        const now = (await describe(runId)).status.name;
        if (now !== "COMPLETED") throw new RunNotActive(runId, now.toLowerCase());
      }
      const snapshot = await query(runId, snapshotQuery);
      const input = original ?? (await query(runId, inputQuery));
      const carried = { ...snapshot, inbox: [...snapshot.inbox, message] };
      // The new execution continues none in Temporal's records: the worker takes its carried state only with this signature.
      // A JSON round trip first, so the signature covers exactly what the worker will read (no undefined fields).
      const wire = JSON.parse(JSON.stringify(carried)) as typeof carried;
      await startWorkflow(runId, { ...input, carried: wire, ...(decisionKey ? { carriedProof: signCarriedState(decisionKey, runId, wire) } : {}) });
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
  };
}
