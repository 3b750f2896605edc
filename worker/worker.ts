import path from "node:path";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { PayloadCodec } from "@temporalio/common";
import { bundleWorkflowCode, NativeConnection, Worker } from "@temporalio/worker";
import type { AppConfig } from "../lib/config/env";
import type { Db } from "../lib/db/prisma";
import { zapPayloadCodecs } from "../lib/temporal/payload-codecs";
import { configuredKey } from "../lib/crypto/keys";
import { temporalConnectionOptions } from "../lib/temporal/connection-options";
import { createActivities } from "./activities";
import { effectiveApprovalChannels } from "../lib/approval-channels/server/effective";
import { createDeriver, type Deriver } from "../lib/run-ledger/deriver";
import { createModelRegistry, type ModelRegistry } from "./models/registry";
import { createMcpConnections, type McpConnections } from "./tools/mcp";
import { createToolExecutor } from "./tools/executor";
import { createGuardedFetch } from "../lib/net/egress";
import type { RunExporter } from "../lib/telemetry/exporter";
import { pinnedDeploymentOptions, workerVersionFor, type WorkerVersion } from "./versioning/worker-version";

export const WORKFLOWS_PATH = path.join(import.meta.dirname, "workflows", "index.ts");
export const PROJECT_ROOT = path.resolve(import.meta.dirname, "..");

export interface ZapWorkerDeps {
  config: AppConfig;
  db: Db;
  connection: NativeConnection;
  /** Overrides the task queue (tests run isolated queues on one server). */
  taskQueue?: string;
  /** Overrides the model registry (benchmarks add simulated latency). */
  models?: ModelRegistry;
  mcp?: McpConnections;
  /** A pre-built workflow bundle: its code (tests share one) or a file (`npm start` builds one). */
  workflowBundle?: { code: string } | { codePath: string };
  /** Overrides the payload codecs (default: the claim check; tests pass [] to meet the server's size limit). */
  payloadCodecs?: PayloadCodec[];
  /** Exports finished run trees over OTLP (worker/telemetry/run-exporter.ts; absent: off). */
  runExporter?: RunExporter | null;
}

/**
 * The approval channels in effect, read at each delivery and reminder sweep: the environment's variables over the
 * admin's settings, cached a few seconds (lib/approval-channels/server/effective.ts), so a change needs no restart.
 * The Slack signing secret stays with the web server.
 */
function approvalChannelsOf(db: Db, config: AppConfig) {
  return async () => {
    const { email, slack, linkBase } = await effectiveApprovalChannels(db, config);
    return {
      email: email ? { ...email, linkBase } : null,
      slack: slack ? { botToken: slack.botToken, channel: slack.channel, apiUrl: slack.apiUrl, allowHosts: slack.allowHosts, linkBase } : null,
    };
  };
}

/** Connects to the configured Temporal with the worker's native client. */
export function connectWorker(config: AppConfig): Promise<NativeConnection> {
  return NativeConnection.connect(temporalConnectionOptions(config));
}

type BundleOption = NonNullable<ZapWorkerDeps["workflowBundle"]>;

/** The bundle's code: a versioned worker's build id is its hash, so the worker bundles ahead (`npm start --dev`) rather than inside Worker.create. */
async function bundleCode(bundle: BundleOption | undefined): Promise<string> {
  if (bundle && "code" in bundle) return bundle.code;
  if (bundle) return readFile(bundle.codePath, "utf8");
  return (await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH })).code;
}

/**
 * Builds the worker: bundled workflows plus activities built from their dependencies.
 * With Worker Versioning on (ZAP_WORKER_VERSIONING), it polls as a version of the
 * worker deployment and answers which; making that version current is the caller's
 * step once it polls (worker/versioning/startup.ts).
 */
export async function createZapWorker(deps: ZapWorkerDeps): Promise<{ worker: Worker; mcp: McpConnections; version: WorkerVersion | null; deriver: Deriver }> {
  const { config, db, connection } = deps;
  const deriver = createDeriver(db);
  // stdio MCP servers start in private temp directories (worker/tools/mcp.ts), never in PROJECT_ROOT.
  const mcpDeps = { db, config };
  const mcp = deps.mcp ?? createMcpConnections(mcpDeps);
  const models = deps.models ?? createModelRegistry({ models: config.models, demoLatencyMs: config.models.demoLatencyMs });
  const tools = createToolExecutor({ db, mcp, httpAllowlist: config.tools.httpAllowlist, egressFetch: createGuardedFetch({ allowHosts: config.egress.allowHosts }) });
  // A bundle built by `npm start` / `npm run build` spares the worker a webpack run.
  const prebuilt = config.temporal.workflowBundlePath;
  let workflowBundle: BundleOption | undefined = deps.workflowBundle ?? (prebuilt && existsSync(prebuilt) ? { codePath: prebuilt } : undefined);
  let version: WorkerVersion | null = null;
  if (config.temporal.workerVersioning) {
    const code = await bundleCode(workflowBundle);
    workflowBundle = { code };
    version = workerVersionFor(config.temporal.workerVersioning, code);
  }
  const role = config.temporal.workerRole;
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: deps.taskQueue ?? config.temporal.taskQueue,
    // A worker without workflows polls only activity tasks, and one without activities only workflow tasks.
    ...(role === "activities" ? {} : workflowBundle ? { workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    ...(version ? { workerDeploymentOptions: pinnedDeploymentOptions(version) } : {}),
    ...(role === "workflows"
      ? {}
      : { activities: createActivities({ db, models, tools, webhook: config.webhook, approvalChannels: approvalChannelsOf(db, config), decisionKey: config.keyMaterial ? configuredKey(config, "approval-decisions") : null, mcp: mcpDeps, mcpChecks: mcp, runExporter: deps.runExporter ?? null, deriver }) }),
    // Large payloads (tool results, conversations, query answers) go to the database by reference.
    // With ZAP_PAYLOAD_KEY set, every payload is encrypted after the claim check.
    dataConverter: { payloadCodecs: deps.payloadCodecs ?? zapPayloadCodecs(db, config) },
    // Many runs wait on approvals or sub-agents; keep their state cached.
    maxCachedWorkflows: 1000,
  });
  return { worker, mcp, version, deriver };
}
