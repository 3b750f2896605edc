// The inbox's sentences about a decision, in one place: the status line after
// it is sent, the undo toast while it is held, and the note when it was not sent.
import { approvalSubject } from "@/lib/contract/budget-approval";
import { shortRunId } from "@/lib/inbox/identity";
import type { InboxItem } from "@/lib/inbox/schemas";
import type { ApprovalRequest } from "@/lib/contract/types";
import type { HeldDecision } from "./undo-queue";

/** "ledger_transfer (treasurer, run 1a2b3c4d)": the call and whose run it is. */
export function callLabel(item: InboxItem): string {
  return `${approvalSubject(item)} (${item.agentName}, run ${shortRunId(item.runId)})`;
}

/** What the workflow answered: "approved", "rejected", or "approval 1 of 2 recorded". */
export function outcomeWords(approval: Pick<ApprovalRequest, "status" | "endorsements" | "requiredApprovals">): string {
  return approval.status === "pending" ? `approval ${approval.endorsements.length} of ${approval.requiredApprovals} recorded` : approval.status;
}

/** "Approving", "Approving with edits" or "Rejecting". */
export function heldVerb(entry: HeldDecision): string {
  if (!entry.decision.approved) return "Rejecting";
  return entry.decision.editedArguments ? "Approving with edits" : "Approving";
}

/** What is held: one call by its label, or several by count. */
export function heldWhat(entry: HeldDecision): string {
  const [first] = entry.items;
  if (!first) return "nothing";
  return entry.items.length === 1 ? callLabel(first) : `${entry.items.length} ${approvalSubject(first)} calls`;
}

/** The note for decisions dropped when the user left the inbox during their window. */
export function cancelledOnLeaveNote(dropped: HeldDecision[]): string {
  const what = dropped.map((d) => `${heldVerb(d).toLowerCase()} ${heldWhat(d)}`).join("; ");
  return `Not sent: ${what} — cancelled when you left the inbox during the undo window. Still waiting; decide again.`;
}
