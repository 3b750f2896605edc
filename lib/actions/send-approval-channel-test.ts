"use server";
import { operationAction } from "../http/server/operation-adapters";
import { sendApprovalChannelTestOperation } from "../approval-channels/server/settings";

/** Admins: a test email or Slack message with the approval channels' settings in effect; audited. */
export const sendApprovalChannelTestAction = operationAction(sendApprovalChannelTestOperation);
