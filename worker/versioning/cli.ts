// Operator commands for Worker Versioning (docs/deploying.md), with the same
// TEMPORAL_* and ZAP_WORKER_* environment as the workers:
//   npx tsx worker/versioning/cli.ts status             the deployment's builds, their routing state and open runs
//   npx tsx worker/versioning/cli.ts promote [build-id]  make a build current: new runs start on it
//   npx tsx worker/versioning/cli.ts patches [query]    open executions per engine patch and build (retiring a patch)
// promote's build id defaults to ZAP_WORKER_BUILD_ID, else the hash of the bundle in ZAP_WORKFLOW_BUNDLE.
import { readFileSync } from "node:fs";
import { Client, Connection } from "@temporalio/client";
import { debugRequested, parseEnv } from "../../lib/config/env";
import { temporalConnectionOptions } from "../../lib/temporal/connection-options";
import { currentBuildId, deploymentVersions, openRunsQuery, setCurrentBuild, type DeploymentRef, type WorkflowService } from "../../lib/temporal/worker-deployments";
import { workflowBundleBuildId } from "./worker-version";
import { formatCensus, takePatchCensus } from "./patch-census";

const USAGE = "usage: worker/versioning/cli.ts status | promote [build-id] | patches [visibility query]";

function buildIdToPromote(argument: string | undefined, configured: string | null, bundlePath: string | null): string {
  if (argument) return argument;
  if (configured) return configured;
  if (bundlePath) return workflowBundleBuildId(readFileSync(bundlePath, "utf8"));
  throw new Error(`name the build to promote: an argument, ZAP_WORKER_BUILD_ID, or ZAP_WORKFLOW_BUNDLE (the bundle its workers run)\n${USAGE}`);
}

async function status(service: WorkflowService, ref: DeploymentRef): Promise<void> {
  const [current, versions] = await Promise.all([currentBuildId(service, ref), deploymentVersions(service, ref)]);
  console.log(`worker deployment ${ref.deploymentName} (namespace ${ref.namespace}): current build ${current ?? "none (new runs wait for a worker without versioning)"}`);
  if (versions.length === 0) console.log("  no versioned worker has polled yet");
  for (const v of versions) {
    console.log(`  ${v.buildId.padEnd(24)} ${v.status.padEnd(9)} ${v.openRuns} open run${v.openRuns === 1 ? "" : "s"}`);
    if (v.openRuns > 0 && v.buildId !== current) console.log(`    keep its workers until they finish; list them: temporal workflow list --query "${openRunsQuery(ref.deploymentName, v.buildId)}"`);
  }
}

/** Open executions per engine patch and build: a patch's old branch may go once none lacks its marker. */
async function patches(query: string | undefined): Promise<void> {
  const config = parseEnv(process.env);
  const connection = await Connection.connect(temporalConnectionOptions(config));
  try {
    const client = new Client({ connection, namespace: config.temporal.namespace });
    console.log(formatCensus(await takePatchCensus(client, query)));
  } finally {
    await connection.close();
  }
}

async function main(): Promise<void> {
  const [command, argument] = process.argv.slice(2);
  if (command === "patches") return patches(argument);
  if (command !== "status" && command !== "promote") throw new Error(USAGE);
  // The deployment these commands act on is the workers' one, whether or not this shell turned versioning on.
  const config = parseEnv({ ...process.env, ZAP_WORKER_VERSIONING: "true" });
  const versioning = config.temporal.workerVersioning;
  if (!versioning) throw new Error("unreachable: versioning was just turned on");
  const ref = { namespace: config.temporal.namespace, deploymentName: versioning.deploymentName };
  const connection = await Connection.connect(temporalConnectionOptions(config));
  try {
    if (command === "status") return await status(connection.workflowService, ref);
    const buildId = buildIdToPromote(argument, versioning.buildId, config.temporal.workflowBundlePath);
    const result = await setCurrentBuild(connection.workflowService, ref, buildId, { identity: "zap worker/versioning/cli.ts promote" });
    if (result.outcome === "promoted") console.log(`${ref.deploymentName}: ${buildId} is now current (was ${result.previous ?? "none"}); runs pinned to other builds stay on them`);
    else console.log(`${ref.deploymentName}: ${buildId} was already current`);
    await status(connection.workflowService, ref);
  } finally {
    await connection.close();
  }
}

main().catch((error: unknown) => {
  console.error(`worker versioning: ${error instanceof Error ? error.message : String(error)}`);
  if (error instanceof Error && error.stack && debugRequested()) console.error(error.stack);
  process.exit(1);
});
