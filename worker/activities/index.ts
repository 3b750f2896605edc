import type { Db } from "../../lib/db/prisma";
import type { ModelRegistry } from "../models/registry";
import type { ToolExecutor } from "../tools/executor";
import { createSmokeActivities } from "./smoke";
import { createAgentActivities } from "./agent";
import { createLedgerActivities } from "./ledger";
import { createPlanNodeActivities } from "./plan-node";
import { createRunStartActivities } from "./run-start";
import { createLedgerWriter } from "../../lib/run-ledger/write";
import { createDeriver, type Deriver } from "../../lib/run-ledger/deriver";
import { createNotificationActivities, type WebhookConfig } from "./notifications";
import { createEmailChannel, type ApprovalChannel, type EmailChannelConfig } from "./approval-email";
import { createSlackChannel, type SlackChannelConfig } from "./approval-slack";
import { createReminderSweep, type ReminderChannels } from "./approval-reminders";
import { createMcpDiscoveryActivities } from "./mcp-discovery";
import type { McpDeps } from "../tools/mcp";
import type { McpCheckCaller } from "./guardrail-custom";
import type { RunExporter } from "../../lib/telemetry/exporter";
import { exportingLedgerWriter } from "../telemetry/exporting-ledger";
import { createMonitorActivities } from "./monitors";
import { createPlaygroundActivities } from "./playground";
import { createExperimentActivities, engineItemRuns, registryJudge } from "./experiment";
import { createScheduleActivities } from "./schedules";
import { createGuardrailActivities } from "./guardrails";
import { createOnlineEvalActivities } from "./online-eval";
import type { SeriesReader } from "../../lib/monitors/evaluate";

export interface ActivityDeps {
  db: Db;
  models: ModelRegistry;
  tools: ToolExecutor;
  webhook?: WebhookConfig | null;
  /** Approval emails over SMTP (null: none). */
  approvalEmail?: EmailChannelConfig | null;
  /** Approvals posted to (and updated in) a Slack channel (null: none). */
  approvalSlack?: SlackChannelConfig | null;
  /** The channels in effect, read at each delivery and sweep (lib/approval-channels/server/effective.ts); over approvalEmail and approvalSlack when given. */
  approvalChannels?: () => Promise<ReminderChannels>;
  /** Key that checks the web server's signature on approval decisions (null refuses every decision). */
  decisionKey?: Buffer | null;
  /** How the worker reaches registered MCP servers (discovery); null answers that it cannot. */
  mcp?: McpDeps | null;
  /** The worker's MCP connections, for tools admins offer as guardrail checks (null: such checks trip). */
  mcpChecks?: McpCheckCaller | null;
  /** Exports finished run trees over OTLP (null: off, the default). */
  runExporter?: RunExporter | null;
  /** Reads monitors' series (default: lib/metrics' rollups; tests pass their own). */
  readMonitorSeries?: SeriesReader;
  /** Derives what the ledger writer queued (default: one of its own, woken by each write). */
  deriver?: Deriver;
  /** Tests only: runs before an online evaluator scores each check (a crash test kills the worker there). */
  beforeOnlineCheck?: (evaluationId: string) => Promise<void>;
}

/** Where approvals go besides the webhook: email and Slack, as configured (read at each delivery when they may change). */
function approvalChannels(deps: ActivityDeps): ApprovalChannel[] {
  const settings = deps.approvalChannels;
  if (settings) return [createEmailChannel(deps.db, async () => (await settings()).email), createSlackChannel(deps.db, async () => (await settings()).slack)];
  const channels: ApprovalChannel[] = [];
  if (deps.approvalEmail) channels.push(createEmailChannel(deps.db, deps.approvalEmail));
  if (deps.approvalSlack) channels.push(createSlackChannel(deps.db, deps.approvalSlack));
  return channels;
}

/** The monitor tick's reminder and escalation sweep, when an approval channel is (or may become) configured. */
function reminderSweep(deps: ActivityDeps): (() => Promise<unknown>) | undefined {
  const settings = deps.approvalChannels;
  if (settings) {
    return async () => {
      const channels = await settings();
      if (!channels.email && !channels.slack) return { reminded: 0, escalated: 0 };
      return createReminderSweep(deps.db, channels)();
    };
  }
  if (!deps.approvalEmail && !deps.approvalSlack) return undefined;
  return createReminderSweep(deps.db, { email: deps.approvalEmail ?? null, slack: deps.approvalSlack ?? null });
}

/** Every activity the worker registers, built from its dependencies. */
export function createActivities(deps: ActivityDeps) {
  // One ledger writer per worker process: batches of concurrent runs share a transaction,
  // whether a model call carries them or the run's background writer sends them.
  // The search index, facets and rollups are derived after each written group, off the runs' path.
  const deriver = deps.deriver ?? createDeriver(deps.db);
  const ledger = exportingLedgerWriter(createLedgerWriter(deps.db, { onWritten: deriver.kick }), deps.runExporter ?? null);
  return {
    ...createSmokeActivities(deps),
    ...createAgentActivities({ ...deps, ledger }),
    ...createLedgerActivities({ ...deps, ledger }),
    ...createPlanNodeActivities({ ...deps, ledger }),
    ...createRunStartActivities({ decisionKey: deps.decisionKey ?? null }),
    ...createNotificationActivities({ webhook: deps.webhook ?? null, channels: approvalChannels(deps) }),
    ...createMcpDiscoveryActivities({ mcp: deps.mcp ?? null }),
    ...createMonitorActivities({ db: deps.db, webhook: deps.webhook ?? null, readMonitorSeries: deps.readMonitorSeries, sweepApprovalReminders: reminderSweep(deps) }),
    ...createPlaygroundActivities(deps),
    ...createScheduleActivities({ db: deps.db, decisionKey: deps.decisionKey ?? null, webhook: deps.webhook ?? null }),
    ...createExperimentActivities({ db: deps.db, ...engineItemRuns({ db: deps.db, decisionKey: deps.decisionKey ?? null }), judge: registryJudge(deps.models) }),
    ...createGuardrailActivities({ models: deps.models, mcpChecks: deps.mcpChecks ?? null }),
    ...createOnlineEvalActivities({ db: deps.db, models: deps.models, mcpChecks: deps.mcpChecks ?? null, beforeCheck: deps.beforeOnlineCheck }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
