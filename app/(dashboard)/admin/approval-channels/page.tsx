import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { readApprovalChannels } from "@/lib/approval-channels/server/settings";
import { PageHeader } from "@/components/ui/page-header";
import { ApprovalChannelsClient } from "./approval-channels-client";

export const metadata: Metadata = { title: "Approval channels" };
export const dynamic = "force-dynamic";

export default async function AdminApprovalChannelsPage() {
  // Admins only, reading included: the settings name the mail server and the Slack workspace. Secrets never reach the page.
  await requirePageUser("users:manage");
  return (
    <>
      <PageHeader
        title="Approval channels"
        description="Where approvals reach people besides the inbox: email over SMTP and a Slack channel. A field set by an environment variable is read-only here (the environment wins). Secrets are stored encrypted and never shown again; type a new value to replace one. Changes apply within seconds, without a restart. All changes audited."
      />
      <ApprovalChannelsClient initial={await readApprovalChannels()} />
    </>
  );
}
