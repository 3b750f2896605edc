"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { linkSlackUserOperation } from "../approval-channels/server/slack-links";

/** Admins: a Slack member decides approvals in Slack as this Zap user; audited. */
export const linkSlackUserAction = operationAction(linkSlackUserOperation, () => revalidatePath("/admin/slack"));
