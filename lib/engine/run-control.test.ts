import { describe, expect, it } from "vitest";
import { WorkflowUpdateFailedError } from "@temporalio/client";
import { ApplicationFailure } from "@temporalio/common";
import { isMissingUpdateHandler } from "./run-control";

describe("sending a message to an open run", () => {
  it("falls back to the signal only when the execution has no handler for the update", () => {
    const missing = new WorkflowUpdateFailedError("update failed", ApplicationFailure.nonRetryable("No registered handler for update: sendUserMessage"));
    expect(isMissingUpdateHandler(missing)).toBe(true);
    const busy = new WorkflowUpdateFailedError("update failed", ApplicationFailure.create({ type: "RunBusy", message: "the run is still working", nonRetryable: true }));
    expect(isMissingUpdateHandler(busy), "a refusal is an answer, not a missing handler").toBe(false);
    expect(isMissingUpdateHandler(new Error("No registered handler for update: sendUserMessage")), "only the workflow's own failure counts").toBe(false);
  });
});
