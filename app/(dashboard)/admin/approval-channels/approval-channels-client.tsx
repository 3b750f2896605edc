"use client";
import { ApprovalChannelsForm } from "@/components/admin/approval-channels-form";
import type { ApprovalChannelsView } from "@/lib/approval-channels/schemas";

/** The page's interactive part: the two channels' forms and their test buttons. */
export function ApprovalChannelsClient({ initial }: { initial: ApprovalChannelsView }) {
  return <ApprovalChannelsForm initial={initial} />;
}
