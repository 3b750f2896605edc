// What a Temporal client error means for the engine client: the run is gone,
// or an update may simply be sent again.
import { ServiceError, WorkflowNotFoundError, WorkflowUpdateRPCTimeoutOrCancelledError, isGrpcServiceError } from "@temporalio/client";

const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_FAILED_PRECONDITION = 9;
const GRPC_UNAVAILABLE = 14;

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

/** Temporal no longer has the run's workflow, or it has closed and cannot take the call. */
export function isNotFound(error: unknown): boolean {
  return error instanceof WorkflowNotFoundError || (error instanceof Error && /not found|already completed/i.test(error.message));
}
