import { describe, expect, it } from "vitest";
import { WorkflowUpdateFailedError } from "@temporalio/client";
import { ApplicationFailure } from "@temporalio/common";
import { followUpPolicyOfRun, isMissingUpdateHandler } from "./run-control";

describe("sending a message to an open run", () => {
  it("falls back to the signal only when the execution has no handler for the update", () => {
    const missing = new WorkflowUpdateFailedError("update failed", ApplicationFailure.nonRetryable("No registered handler for update: sendUserMessage"));
    expect(isMissingUpdateHandler(missing)).toBe(true);
    const busy = new WorkflowUpdateFailedError("update failed", ApplicationFailure.create({ type: "RunBusy", message: "the run is still working", nonRetryable: true }));
    expect(isMissingUpdateHandler(busy), "a refusal is an answer, not a missing handler").toBe(false);
    expect(isMissingUpdateHandler(new Error("No registered handler for update: sendUserMessage")), "only the workflow's own failure counts").toBe(false);
  });
});

describe("which way a message goes to an open run", () => {
  it("reads the policy the run started with from its memo; a run started before the memo has none (it gets the signal)", () => {
    expect(followUpPolicyOfRun({ followUps: "reject" })).toBe("reject");
    expect(followUpPolicyOfRun({ followUps: "interrupt" })).toBe("interrupt");
    expect(followUpPolicyOfRun({})).toBeNull();
    expect(followUpPolicyOfRun(undefined)).toBeNull();
    expect(followUpPolicyOfRun({ followUps: 3 }), "only a word counts").toBeNull();
  });
});
