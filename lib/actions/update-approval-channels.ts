"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { updateApprovalChannelsOperation } from "../approval-channels/server/settings";

/** Admins: the SMTP and Slack settings of approvals (absent kept, null cleared); audited without secrets. */
export const updateApprovalChannelsAction = operationAction(updateApprovalChannelsOperation, () => revalidatePath("/admin/approval-channels"));
