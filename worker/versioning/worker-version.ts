// Which worker deployment version this worker is, and the worker options that
// register it as that version (docs/deploying.md).
import { createHash } from "node:crypto";
import type { WorkerDeploymentOptions } from "@temporalio/worker";
import type { AppConfig } from "../../lib/config/env";

export type WorkerVersioningConfig = NonNullable<AppConfig["temporal"]["workerVersioning"]>;

export interface WorkerVersion {
  deploymentName: string;
  buildId: string;
}

/**
 * A build id that changes exactly when the workflow code does: the bundle's
 * SHA-256, shortened. The bundle names its modules by paths relative to the
 * directory it is built from (npm scripts build from the project root), never
 * absolute ones, so every host that builds the same commit gets the same id and
 * restarting a release is not a new version. Activity code is not in it
 * (activities are not replayed); set ZAP_WORKER_BUILD_ID to version them too.
 */
export function workflowBundleBuildId(bundleCode: string): string {
  return `wf-${createHash("sha256").update(bundleCode).digest("hex").slice(0, 16)}`;
}

/** This worker's version: ZAP_WORKER_BUILD_ID when set, else the hash of the bundle it runs. */
export function workerVersionFor(versioning: WorkerVersioningConfig, bundleCode: string): WorkerVersion {
  return { deploymentName: versioning.deploymentName, buildId: versioning.buildId ?? workflowBundleBuildId(bundleCode) };
}

/**
 * Registers the worker as `version`, its runs PINNED: a run's workflow tasks,
 * its continue-as-new executions and its child runs all stay on the build that
 * started it, so a new build's changes apply to new runs only. (Children start
 * on their pinned parent's build when they share its task queue, which ours do.)
 */
export function pinnedDeploymentOptions(version: WorkerVersion): WorkerDeploymentOptions {
  return { useWorkerVersioning: true, version, defaultVersioningBehavior: "PINNED" };
}
