// Worker Versioning's deployment operations (docs/deploying.md): which build
// of a worker deployment is current, making a build current, and which builds
// still hold open runs. The worker uses them at start-up, the
// `worker/versioning/cli.ts` commands for operators, and the tests.
import type { temporal } from "@temporalio/proto";

/** The gRPC service both @temporalio/client's Connection and the worker's NativeConnection carry. */
export type WorkflowService = temporal.api.workflowservice.v1.WorkflowService;

export interface DeploymentRef {
  namespace: string;
  deploymentName: string;
}

export type VersionStatus = "created" | "inactive" | "current" | "ramping" | "draining" | "drained" | "unknown";

export interface DeploymentVersionSummary {
  buildId: string;
  status: VersionStatus;
  /** Runs (any execution still open) whose workflow tasks go to this build. */
  openRuns: number;
}

export type PromoteOutcome =
  | { outcome: "promoted"; previous: string | null }
  | { outcome: "already-current" }
  /** onlyIfNone, and another build was current: nothing changed. */
  | { outcome: "kept"; current: string };

const GRPC_NOT_FOUND = 5;
const GRPC_FAILED_PRECONDITION = 9;
const GRPC_ABORTED = 10;

function grpcCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "number" ? code : undefined;
}

// temporal.api.enums.v1.WorkerDeploymentVersionStatus by number: @temporalio/proto is CommonJS without
// named ESM exports, so outside vitest only its types can be imported by name.
const STATUS_NAMES: Partial<Record<number, VersionStatus>> = { 1: "inactive", 2: "current", 3: "ramping", 4: "draining", 5: "drained", 6: "created" };

/**
 * The visibility query for a build's open runs: the server records the version
 * a run is on in the `TemporalWorkerDeploymentVersion` search attribute, as
 * `<deployment>:<build id>`. Also usable with `temporal workflow list --query`.
 */
export function openRunsQuery(deploymentName: string, buildId: string): string {
  return `TemporalWorkerDeploymentVersion = '${deploymentName}:${buildId}' AND ExecutionStatus = 'Running'`;
}

/** The deployment's current build and the token that makes a change conditional on it; null before the first versioned worker polls. */
async function describeRouting(service: WorkflowService, ref: DeploymentRef): Promise<{ current: string | null; conflictToken: Uint8Array } | null> {
  try {
    const response = await service.describeWorkerDeployment({ namespace: ref.namespace, deploymentName: ref.deploymentName });
    // No current version (routing to unversioned workers) has no deploymentVersion.
    const current = response.workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId || null;
    return { current, conflictToken: response.conflictToken ?? new Uint8Array() };
  } catch (error) {
    if (grpcCode(error) === GRPC_NOT_FOUND) return null;
    throw error;
  }
}

/** The build id of the deployment's current version, or null when it has none (new runs then wait for an unversioned worker). */
export async function currentBuildId(service: WorkflowService, ref: DeploymentRef): Promise<string | null> {
  return (await describeRouting(service, ref))?.current ?? null;
}

/**
 * Makes `buildId` the deployment's current version: new runs start on it, and
 * runs already pinned to another build stay there. A version exists only once
 * one of its workers has polled, and the server refuses a version without
 * pollers, so this retries until `timeoutMs`. With `onlyIfNone`, it changes
 * nothing when another build is current (two workers starting at once agree:
 * the change is conditional on the routing it read).
 */
export async function setCurrentBuild(
  service: WorkflowService,
  ref: DeploymentRef,
  buildId: string,
  options: { onlyIfNone?: boolean; timeoutMs?: number; identity?: string } = {},
): Promise<PromoteOutcome> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const fail = (why: string, cause?: unknown) => new Error(`could not make build ${buildId} current in worker deployment ${ref.deploymentName}: ${why}`, { cause });
  for (;; await new Promise((resolve) => setTimeout(resolve, 250))) {
    const routing = await describeRouting(service, ref);
    // The deployment appears with its first worker's poll; without it there is no conflict token to change it safely.
    if (!routing) {
      if (Date.now() > deadline) throw fail("the deployment does not exist (no worker of it has polled)");
      continue;
    }
    if (routing.current === buildId) return { outcome: "already-current" };
    if (options.onlyIfNone && routing.current) return { outcome: "kept", current: routing.current };
    try {
      await service.setWorkerDeploymentCurrentVersion({
        namespace: ref.namespace,
        deploymentName: ref.deploymentName,
        buildId,
        conflictToken: routing.conflictToken,
        ...(options.identity ? { identity: options.identity } : {}),
      });
      return { outcome: "promoted", previous: routing.current };
    } catch (error) {
      // NOT_FOUND: this build has not polled yet; FAILED_PRECONDITION: no pollers seen yet, or the routing
      // changed since it was read (the next round reads it again); ABORTED: a concurrent change.
      const retryable = [GRPC_NOT_FOUND, GRPC_FAILED_PRECONDITION, GRPC_ABORTED].includes(grpcCode(error) ?? -1);
      if (!retryable || Date.now() > deadline) throw fail(error instanceof Error ? error.message : String(error), error);
    }
  }
}

/** Every version the deployment knows, with its routing status and how many open runs it still holds. */
export async function deploymentVersions(service: WorkflowService, ref: DeploymentRef): Promise<DeploymentVersionSummary[]> {
  let response;
  try {
    response = await service.describeWorkerDeployment({ namespace: ref.namespace, deploymentName: ref.deploymentName });
  } catch (error) {
    if (grpcCode(error) === GRPC_NOT_FOUND) return [];
    throw error;
  }
  const summaries = response.workerDeploymentInfo?.versionSummaries ?? [];
  return Promise.all(
    summaries.map(async (summary): Promise<DeploymentVersionSummary> => {
      const buildId = summary.deploymentVersion?.buildId ?? "";
      const counted = await service.countWorkflowExecutions({ namespace: ref.namespace, query: openRunsQuery(ref.deploymentName, buildId) });
      return { buildId, status: STATUS_NAMES[summary.status ?? 0] ?? "unknown", openRuns: Number(counted.count ?? 0) };
    }),
  );
}
