import "server-only";
import { isGrpcServiceError } from "@temporalio/client";
import { AppError, toErrorBody, type ErrorBody } from "../../errors";

/** What any door answers while Temporal cannot be reached (503). */
export class EngineUnavailable extends AppError {
  constructor() {
    super("unavailable", 503, "The engine (Temporal) is not reachable; check /api/health");
    this.name = "EngineUnavailable";
  }
}

const GRPC_UNAVAILABLE = 14;
// The lazy connection's own failure, raised before any gRPC call is made.
const CONNECT_FAILURE = /^Failed to connect (before the deadline|to Temporal server)/;

/**
 * Whether an error, or any error it wraps, says Temporal cannot be reached. The
 * client wraps gRPC UNAVAILABLE in a ServiceError ("Failed to start Workflow",
 * cause code 14), so the cause chain is what counts, not the outer message.
 */
export function isTemporalUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    if (isGrpcServiceError(current) && current.code === GRPC_UNAVAILABLE) return true;
    if (CONNECT_FAILURE.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

export interface MappedError {
  status: number;
  body: ErrorBody;
}

/**
 * The one mapping from anything a route handler or server action throws to what
 * the browser may see: AppErrors keep their status and message, Temporal being
 * unreachable is a 503, anything else a generic 500. Server-side failures are
 * logged with `context`; an unknown error's message never leaves the server.
 */
export function mapError(error: unknown, context: string): MappedError {
  if (error instanceof AppError) {
    if (error.status >= 500) console.error(`${context}:`, error);
    return toErrorBody(error);
  }
  if (isTemporalUnavailable(error)) {
    console.error(`${context}: Temporal is unreachable:`, error);
    return toErrorBody(new EngineUnavailable());
  }
  console.error(`${context}:`, error);
  return toErrorBody(error);
}
