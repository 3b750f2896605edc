// Typed keys for the search attributes in search-attributes.ts, usable by
// workflow code (to upsert) and clients (to set at start and to filter).
import { defineSearchAttributeKey, SearchAttributeType } from "@temporalio/common";

export const SA_AGENT_NAME = defineSearchAttributeKey("ZapAgentName", SearchAttributeType.KEYWORD);
export const SA_RUN_STATUS = defineSearchAttributeKey("ZapRunStatus", SearchAttributeType.KEYWORD);
export const SA_PENDING_APPROVALS = defineSearchAttributeKey("ZapPendingApprovals", SearchAttributeType.INT);
export const SA_PARENT_RUN_ID = defineSearchAttributeKey("ZapParentRunId", SearchAttributeType.KEYWORD);
