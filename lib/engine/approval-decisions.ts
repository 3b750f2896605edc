// Deciding an approval: the decision is signed here (only this server can make
// one the worker records) and sent as an update, retried under one update id
// while the failure says nothing about the decision; the workflow's refusals
// become the engine's typed errors.
import { randomUUID } from "node:crypto";
import { WorkflowUpdateFailedError } from "@temporalio/client";
import { ApplicationFailure } from "@temporalio/common";
import { APPROVAL_ERRORS, decideApprovalUpdate } from "../contract/definitions";
import type { ApprovalRequest } from "../contract/types";
import type { DecideApprovalInput } from "../contract/workflow";
import { AppError, ForbiddenError, ValidationError } from "../errors";
import { signedDecision } from "./decision-signature";
import type { EngineContext } from "./engine-context";
import { ApprovalAlreadyDecided, ApprovalNotFound, RunNotFound } from "./errors";
import { isNotFound, isRetryableUpdateError } from "./temporal-errors";

/** A decision as the web server makes it: the signature and its time are added by decideApproval. */
export type DecisionInput = Omit<DecideApprovalInput, "signature" | "issuedAt">;

// About 20 s of retries: on an overloaded worker a run's workflow task can keep failing for seconds.
const UPDATE_ATTEMPTS = 8;

/** The engine client's `decideApproval`. */
export function createApprovalDecisions({ db, decisionKey, handle, requireKnownRun }: Pick<EngineContext, "db" | "decisionKey" | "handle" | "requireKnownRun">) {
  /** An approval the workflow no longer holds may have been decided long ago: say by whom. */
  async function decidedElsewhere(runId: string, approvalId: string, fallback: Error): Promise<Error> {
    const record = await db.approvalRecord.findUnique({ where: { id: approvalId } });
    if (!record || record.runId !== runId || record.status === "pending") return fallback;
    const by = record.decidedByEmail ? ` by ${record.decidedByEmail}` : "";
    return new ApprovalAlreadyDecided(`approval ${approvalId} is already ${record.status}${by}`);
  }

  return {
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
  };
}
