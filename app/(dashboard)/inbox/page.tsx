import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/auth/roles";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";

export const metadata: Metadata = { title: "Inbox" };

export default async function InboxPage() {
  const user = await requirePageUser();
  return (
    <>
      <PageHeader title="Inbox" description="Tool calls waiting for a human decision, across all runs and sub-runs." />
      <EmptyState title="Nothing waiting for approval">
        {can(user.role, "approvals:decide")
          ? "When a run calls a tool that matches an approval rule, it pauses and the request appears here for you to approve or reject."
          : "Pending approvals appear here. Approvers and admins decide them; you can follow along."}
      </EmptyState>
    </>
  );
}
