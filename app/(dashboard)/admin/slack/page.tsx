import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { getConfig } from "@/lib/config/server/config";
import { listSlackLinks } from "@/lib/approval-channels/server/slack-links";
import { effectiveApprovalChannels } from "@/lib/approval-channels/server/effective";
import { getDb } from "@/lib/db/server/db";
import { PageHeader } from "@/components/ui/page-header";
import { SlackLinksClient } from "./slack-client";

export const metadata: Metadata = { title: "Slack" };
export const dynamic = "force-dynamic";

export default async function AdminSlackPage() {
  await requirePageUser("users:manage");
  const { slack } = await effectiveApprovalChannels(getDb(), getConfig());
  return (
    <>
      <PageHeader
        title="Slack"
        description="Which Zap Studio user each Slack member decides approvals as when they press Approve or Reject in Slack. An unlinked member decides nothing. All audited."
      />
      <SlackLinksClient links={await listSlackLinks()} configured={slack !== null} channel={slack?.channel ?? null} />
    </>
  );
}
