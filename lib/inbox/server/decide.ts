import "server-only";
// Deciding from the inbox. The workflow's update validator is the authority
// (role, policy, already decided); this layer only names the person from the
// session, never from what the browser sends.
import type { Engine } from "../../engine/client";
import type { ApprovalRequest } from "../../contract/types";
import { AppError } from "../../errors";
import type { SessionUser } from "../../auth/server/session";
import { bulkDecideInputSchema, decideInputSchema, type BulkDecideInput, type BulkOutcome, type DecideInput } from "../schemas";
import { operation } from "../../http/server/operation";
import { getEngine } from "../../engine/server/engine";
import { currentApiKey } from "../../audit/context";

/** Decides one approval as the signed-in person; the action and the route both call this. */
export function decideOne(engine: Engine, user: SessionUser, input: DecideInput): Promise<ApprovalRequest> {
  // Made with an API key: the key travels with the decision (signed) to the audit row the worker writes.
  const key = currentApiKey();
  const apiKeyId = key && key.actorId === user.id ? key.apiKeyId : undefined;
  return engine.decideApproval(input.runId, {
    approvalId: input.approvalId,
    approved: input.approved,
    reason: input.reason,
    editedArguments: input.editedArguments,
    decidedBy: { id: user.id, email: user.email, role: user.role, ...(apiKeyId ? { apiKeyId } : {}) },
  });
}

/** Decides each selected approval; one failure (already decided, forbidden) does not stop the others. */
export async function decideMany(engine: Engine, user: SessionUser, input: BulkDecideInput): Promise<BulkOutcome[]> {
  const settled = await Promise.allSettled(input.items.map((item) => decideOne(engine, user, { ...item, approved: input.approved, reason: input.reason })));
  return settled.map((result, i): BulkOutcome => {
    const approvalId = input.items[i]?.approvalId ?? "";
    if (result.status === "fulfilled") return { approvalId, ok: true, status: result.value.status };
    const error: unknown = result.reason;
    if (error instanceof AppError) return { approvalId, ok: false, message: error.userMessage };
    console.error(`bulk decision on ${approvalId} failed`, error);
    return { approvalId, ok: false, message: "could not decide this one; try again" };
  });
}

/** Decide one approval: the inbox's and the run page's action, and `POST /api/runs/:runId/approvals/:approvalId`. */
export const decideOperation = operation({
  name: "decide-approval",
  permission: "approvals:decide",
  input: decideInputSchema,
  run: ({ input, user }) => decideOne(getEngine(), user, input),
});

/** Decide a selection at once: the inbox's action and `POST /api/approvals/decisions`. */
export const bulkDecideOperation = operation({
  name: "bulk-decide-approvals",
  permission: "approvals:decide",
  input: bulkDecideInputSchema,
  run: ({ input, user }) => decideMany(getEngine(), user, input),
});
