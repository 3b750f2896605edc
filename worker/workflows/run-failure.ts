import type { FailureReason } from "../../lib/contract/types";

/** A run-ending failure with its typed reason. */
export class RunFailure extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
  ) {
    super(message);
    this.name = "RunFailure";
  }
}
