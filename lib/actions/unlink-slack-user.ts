"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { unlinkSlackUserOperation } from "../approval-channels/server/slack-links";

/** Admins: a Slack member decides nothing in Slack from now on; audited. */
export const unlinkSlackUserAction = operationAction(unlinkSlackUserOperation, () => revalidatePath("/admin/slack"));
