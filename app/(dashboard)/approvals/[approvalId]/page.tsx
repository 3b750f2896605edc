import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { PageHeader } from "@/components/ui/page-header";
import { loadApprovalPage } from "@/lib/approval-channels/server/approval-page";
import { ApprovalConfirmClient } from "./approval-client";

export const metadata: Metadata = { title: "Approval" };

/**
 * Where an approval email's (or Slack message's) links lead: the approval, and
 * Approve / Reject buttons that decide it as the signed-in person through the
 * inbox's one door. Opening the page decides nothing; without a session the
 * proxy sends the reader to sign in and back here.
 */
export default async function ApprovalPage({ params, searchParams }: { params: Promise<{ approvalId: string }>; searchParams: Promise<{ decision?: string }> }) {
  const user = await requirePageUser();
  const { approvalId } = await params;
  const { decision } = await searchParams;
  const view = await loadApprovalPage(approvalId);
  if (!view) notFound();
  return (
    <>
      <PageHeader title="Approval" description={`${view.toolName} requested by ${view.agentName} in run ${view.runId}`} />
      <ApprovalConfirmClient view={view} canDecide={can(user.role, "approvals:decide")} intent={decision === "reject" ? "reject" : decision === "approve" ? "approve" : null} />
    </>
  );
}
