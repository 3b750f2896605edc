// What a versioned worker does once it polls: make its build the deployment's
// current version when ZAP_WORKER_PROMOTE says so, and say where runs go.
import os from "node:os";
import { currentBuildId, deploymentVersions, setCurrentBuild, type WorkflowService } from "../../lib/temporal/worker-deployments";
import type { WorkerVersioningConfig, WorkerVersion } from "./worker-version";

/**
 * Applies the promotion policy for a worker that has started polling, and
 * answers lines for its log: whether new runs come to this build, and which
 * other builds still hold open runs (their workers must stay until they drain).
 * Throws when the policy asks for promotion and the server refuses it: a
 * worker that silently gets no runs would be worse than one that stops.
 */
export async function routeNewRuns(
  service: WorkflowService,
  namespace: string,
  version: WorkerVersion,
  promote: WorkerVersioningConfig["promote"],
): Promise<string[]> {
  const ref = { namespace, deploymentName: version.deploymentName };
  const name = `${version.deploymentName}.${version.buildId}`;
  const lines: string[] = [];
  if (promote === "never") {
    const current = await currentBuildId(service, ref);
    lines.push(current === version.buildId ? `${name} is the current version` : `${name} is not current (current: ${current ?? "none"}); new runs go to it once it is promoted`);
  } else {
    const result = await setCurrentBuild(service, ref, version.buildId, { onlyIfNone: promote === "if-none", identity: `zap worker ${os.hostname()} ${process.pid}` });
    if (result.outcome === "kept") lines.push(`${name} is not current (current: ${result.current}); new runs go to it once it is promoted`);
    else if (result.outcome === "promoted") lines.push(`${name} is now the current version (was ${result.previous ?? "none"}): new runs start on it`);
    else lines.push(`${name} is the current version`);
  }
  const others = (await deploymentVersions(service, ref)).filter((v) => v.buildId !== version.buildId && v.openRuns > 0);
  if (others.length > 0) {
    const listed = others.map((v) => `${v.buildId} (${v.status}, ${v.openRuns} open)`).join(", ");
    lines.push(`runs pinned to other builds: ${listed}; they finish only on workers of their build (docs/deploying.md)`);
  }
  return lines;
}
