// The worker process: `npm run worker` (npm start runs it for you).
// Temporal's runtime turns SIGINT/SIGTERM into a graceful shutdown: it stops
// polling, lets running activities finish, then `run()` resolves.
import { debugRequested, parseEnv } from "../lib/config/env";
import { createDb } from "../lib/db/prisma";
import { connectWorker, createZapWorker } from "./worker";
import { routeNewRuns } from "./versioning/startup";
import { payloadCodecStartRefusal } from "../lib/temporal/payload-codecs";
import { runExporterFromEnv } from "./telemetry/run-exporter";
import { startMonitorSchedule } from "./monitor-schedule";
import { resyncSchedules } from "./schedule-resync";
import { startOnlineEvaluators } from "./online-evaluators";
import { serveSdkMetrics } from "./telemetry/sdk-metrics";

/** How often the worker also looks for queued derived rows it was not woken for. */
const DERIVE_SWEEP_MS = 5_000;

async function main(): Promise<void> {
  const config = parseEnv();
  // Production mode without a payload key: refused before anything connects.
  const refusal = payloadCodecStartRefusal(config);
  if (refusal) throw new Error(refusal);
  const db = createDb(config.databaseUrl);
  // Read before connecting, so a bad OTEL_* variable stops the worker with its name.
  const telemetry = runExporterFromEnv(db, process.env);
  if (telemetry) console.log(`worker: exporting finished runs over OTLP/HTTP to ${telemetry.endpoint}`);
  // Before the first connection: the SDK's runtime is configured once, when it is created.
  if (config.temporal.workerMetricsAddress) {
    serveSdkMetrics(config.temporal.workerMetricsAddress);
    console.log(`worker: serving the Temporal SDK's metrics at http://${config.temporal.workerMetricsAddress}/metrics`);
  }
  const connection = await connectWorker(config);
  try {
    const { worker, mcp, version, deriver } = await createZapWorker({ config, db, connection, runExporter: telemetry?.exporter ?? null });
    // Derived rows another process queued and did not derive (it crashed, or writes without a worker) are taken in here.
    const stopSweep = deriver.sweepEvery(DERIVE_SWEEP_MS);
    const as = version ? ` as ${version.deploymentName}.${version.buildId}` : "";
    console.log(`worker: polling task queue "${config.temporal.taskQueue}" on ${config.temporal.address} (namespace ${config.temporal.namespace})${as}`);
    const running = worker.run();
    if (version && config.temporal.workerVersioning) {
      // The version exists on the server only once this worker polls, so routing is settled after run() starts.
      try {
        for (const line of await routeNewRuns(connection.workflowService, config.temporal.namespace, version, config.temporal.workerVersioning.promote)) console.log(`worker: ${line}`);
      } catch (error) {
        worker.shutdown();
        await running.catch(() => undefined);
        throw error;
      }
    }
    await startMonitorSchedule(connection, config);
    await resyncSchedules(connection, config, db);
    await startOnlineEvaluators(connection, config, db);
    await running;
    stopSweep();
    // The pass under way ends; what is still queued is derived by the next worker to sweep.
    await deriver.close();
    await mcp.closeAll();
    // The runs this worker finished are sent before it exits (bounded by the exporter's timeout).
    await telemetry?.exporter.shutdown();
    console.log("worker: stopped cleanly");
  } finally {
    await connection.close();
    await db.$disconnect();
  }
}

main().catch((error: unknown) => {
  console.error(`worker: ${error instanceof Error ? error.message : String(error)}`);
  if (error instanceof Error && error.stack && debugRequested()) console.error(error.stack);
  process.exit(1);
});
