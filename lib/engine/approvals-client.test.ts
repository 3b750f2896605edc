import { describe, expect, it } from "vitest";
import { ServiceError, WorkflowUpdateRPCTimeoutOrCancelledError } from "@temporalio/client";
import { dedupePending, isRetryableUpdateError } from "./client";
import type { ApprovalRequest } from "../contract/types";

const approval = (id: string, requestedAt: string, status: ApprovalRequest["status"] = "pending") => ({ id, requestedAt, status }) as ApprovalRequest;

describe("listPendingApprovals' merge", () => {
  it("lists each pending approval once, oldest first, dropping decided ones", () => {
    // Visibility can name one run twice (continue-as-new) and lag behind decisions.
    const merged = dedupePending([approval("b", "2026-01-02"), approval("a", "2026-01-01"), approval("b", "2026-01-02"), approval("c", "2026-01-01", "approved")]);
    expect(merged.map((a) => a.id)).toEqual(["a", "b"]);
  });
});

describe("decideApproval's retries", () => {
  const grpc = (code: number, details: string) => Object.assign(new Error(`${code} ${details}`), { code, details, metadata: {} });

  it("retries timeouts and failed workflow tasks, never a refusal", () => {
    expect(isRetryableUpdateError(new WorkflowUpdateRPCTimeoutOrCancelledError("context deadline exceeded"))).toBe(true);
    expect(isRetryableUpdateError(new ServiceError("Workflow Update failed", { cause: grpc(9, "Unable to perform workflow execution update due to Workflow Task in failed state.") }))).toBe(true);
    expect(isRetryableUpdateError(new ServiceError("Workflow Update failed", { cause: grpc(9, "workflow is closed") }))).toBe(false);
    expect(isRetryableUpdateError(new ServiceError("Workflow Update failed", { cause: grpc(5, "not found") }))).toBe(false);
    expect(isRetryableUpdateError(new Error("already decided"))).toBe(false);
  });
});
