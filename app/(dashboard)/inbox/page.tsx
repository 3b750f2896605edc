import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { PageHeader } from "@/components/ui/page-header";
import { LabelRequests } from "@/components/inbox/label-requests";
import { InboxClient } from "./inbox-client";

export const metadata: Metadata = { title: "Inbox" };

export default async function InboxPage() {
  const user = await requirePageUser();
  return (
    <>
      <PageHeader title="Inbox" description="Tool calls waiting for a human decision, across all runs and sub-runs." />
      <LabelRequests canDecide={can(user.role, "approvals:decide")} meId={user.id} />
      <InboxClient canDecide={can(user.role, "approvals:decide")} me={user.email} />
    </>
  );
}
