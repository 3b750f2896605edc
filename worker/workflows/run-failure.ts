import type { FailureDetails, FailureReason } from "../../lib/contract/types";

/** A run-ending failure with its typed reason (and, for some reasons, what a person needs to see why). */
export class RunFailure extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
    readonly details?: FailureDetails,
  ) {
    super(message);
    this.name = "RunFailure";
  }
}
