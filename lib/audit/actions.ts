// Every kind of audit row, in one list: a new mutation adds its action here, so
// the audit page, the chain verifier and the tests know every shape there is.

export const AUDIT_ACTIONS = [
  // approvals (written with the approval record, before the workflow applies the outcome)
  "approval.approved",
  "approval.rejected",
  "approval.expired",
  "approval.endorsed",
  // a pending approval closed because its run ended first (cancelled, failed): nobody decided
  "approval.withdrawn",
  // runs
  "run.started",
  "run.follow_up",
  "run.cancelled",
  // a run forked from another at a step (the row names the origin run and step, the version, what was edited)
  "run.forked",
  // image attachments (an upload; the row holds the image's facts, never its bytes)
  "attachment.uploaded",
  // agents and their versions
  "agent.created",
  "agent.version_saved",
  "agent.version_restored",
  // a draft version made the graph's default (the row names the version and the default it replaced)
  "agent.version_promoted",
  "agent.imported",
  "agent.duplicated",
  "agent.archived",
  "agent.unarchived",
  // version labels (lib/labels: the row names the graph, the label, the version and split it moved from and to,
  // and the request that carried a protected label's change); requests to change a protected label and their decisions
  "label.set",
  "label.removed",
  "label.protection_set",
  "label.move_requested",
  "label.request_approved",
  "label.request_rejected",
  "label.request_cancelled",
  // the MCP registry and tool discovery
  "mcp_server.created",
  "mcp_server.updated",
  "mcp_server.deleted",
  "mcp_server.discovered",
  // monitors and their alerts (alerts are written by the worker's evaluator: no actor)
  "monitor.created",
  "monitor.updated",
  "monitor.deleted",
  "alert.fired",
  "alert.resolved",
  // online evaluators (lib/online-eval: the row holds the evaluator's name, graph and what changed) and their backfills
  "evaluator.created",
  "evaluator.updated",
  "evaluator.deleted",
  "evaluator.backfill_started",
  // schedules that start runs (lib/schedules); firings are written by the worker: no actor
  "schedule.created",
  "schedule.updated",
  "schedule.paused",
  "schedule.resumed",
  "schedule.triggered",
  "schedule.backfilled",
  "schedule.deleted",
  // a change saved whose Temporal Schedule could not be brought in line (the next change or worker start retries)
  "schedule.sync_failed",
  "schedule.fired",
  // a firing that started nothing: the owner may no longer start runs, or the graph is gone
  "schedule.fire_refused",
  "schedule.paused_after_failures",
  // inbound webhook endpoints (lib/webhooks); their deliveries are rows of webhook_deliveries, their runs audit run.started
  "webhook.created",
  "webhook.updated",
  "webhook.secret_rotated",
  "webhook.deleted",
  // spend limits (lib/spend-limits: the row names the scope, period and amount, and the amount it replaced)
  "spend_limit.set",
  "spend_limit.removed",
  // the price table (lib/pricing: the row names the model, its rates and effective time, and the rates it replaced)
  "price.set",
  "price.removed",
  // the workspace policy
  "policy.updated",
  // accounts and sessions
  "user.created",
  "user.role_changed",
  "user.disabled",
  "user.enabled",
  "user.password_reset",
  "user.password_changed",
  "user.sign_in_unblocked",
  "auth.signed_in",
  "auth.sign_in_failed",
  "auth.sign_in_throttled",
  "session.signed_out",
  // API keys (the secret is never in a row: its id, name, prefix, kind and role)
  "api_key.created",
  "api_key.revoked",
  // Slack user links (which Zap user a Slack member decides approvals as; lib/approval-channels)
  "slack.user_linked",
  "slack.user_unlinked",
  // approval channels set on /admin/approval-channels (the row names the fields changed, never a value of a secret),
  // and a test message sent through one (the channel and whether it went out)
  "approval_channels.updated",
  "approval_channels.tested",
  // saved views of the runs list (the row holds the view's name and filters)
  "view.created",
  "view.updated",
  "view.deleted",
  // the playground (a model call run alone: the row holds the model and token counts, never the messages;
  // opening a recorded call, which starts a workflow describing the agent's tools)
  "playground.called",
  "playground.opened",
  // feedback on runs and spans (the row holds the rating and whether a comment was given)
  "feedback.set",
  "feedback.removed",
  // experiments (the row holds the dataset version, the targets and the unit count, never item payloads)
  "experiment.started",
  "experiment.cancelled",
  // datasets (the row holds the dataset, the version made and item counts, never item payloads)
  "dataset.created",
  "dataset.items_added",
  "dataset.imported",
  "dataset.item_updated",
  "dataset.item_removed",
  "dataset.archived",
  // set-up and diagnostics
  "seed.demo_users",
  "smoke.run",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Rows only admins (users:manage) may read: failed and throttled sign-ins name
 * the emails tried and the addresses they came from, and a lifted block names
 * addresses. Other readers of the audit do not see these rows at all, and see
 * sign-ins without their address.
 */
export const ADMIN_ONLY_AUDIT_ACTIONS: readonly AuditAction[] = ["auth.sign_in_failed", "auth.sign_in_throttled", "user.sign_in_unblocked"];

/**
 * Rows about one person's private objects, read by that person and admins only
 * (issue 36 §1): a saved view's name and filters are its owner's alone (the views
 * route answers 404 to anyone else), and an API key's rows say who holds which
 * key, of what role, and when it was revoked. The owner is the row's actor or,
 * for a key, the key's owner (an admin's revocation or an operator's creation
 * names someone else as actor).
 */
export const OWNER_ONLY_AUDIT_ACTIONS: readonly AuditAction[] = ["api_key.created", "api_key.revoked", "view.created", "view.updated", "view.deleted"];

/** The owner-only rows whose target is an API key's id. */
export const API_KEY_AUDIT_ACTIONS: readonly AuditAction[] = ["api_key.created", "api_key.revoked"];

/** One row to append: who (null for the system or an anonymous caller) did what to which target. */
export interface AuditEntry {
  /** A stable id makes the write idempotent (a retried activity writes the row once). */
  id?: string;
  actorId: string | null;
  action: AuditAction;
  target?: string | null;
  details?: Record<string, unknown>;
  /** Defaults to now. */
  at?: Date;
}
