// Acting on a run that exists: a user message (a signal to an open run, a new
// execution for one that completed) and cancellation.
import { inputQuery, snapshotQuery, userMessageSignal } from "../contract/definitions";
import { ValidationError } from "../errors";
import type { ImageInput } from "../attachments/schemas";
import { agentModel, requireVision } from "../models/vision";
import type { EngineContext } from "./engine-context";
import { RunNotActive, RunNotFound } from "./errors";
import { isNotFound } from "./temporal-errors";
import { signCarriedState } from "./run-start-signature";

/** The engine client's `sendMessage` and `cancelRun`. */
export function createRunControl({
  catalog,
  handle,
  query,
  describe,
  requireKnownRun,
  storedImages,
  startWorkflow,
  decisionKey,
}: Pick<EngineContext, "catalog" | "handle" | "query" | "describe" | "requireKnownRun" | "storedImages" | "startWorkflow"> & Partial<Pick<EngineContext, "decisionKey">>) {
  return {
    /**
     * Adds a user message to a run. A run that is still open (working or
     * waiting for a follow-up) gets a signal; a run that closed after
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
      if (running) {
        await handle(runId).signal(userMessageSignal, message);
        return;
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
