import "server-only";
import { getDb } from "../../db/server/db";
import { readDeriveLag, type DeriveLag } from "../../db/derive-lag";
import { getTemporalConnection } from "../../temporal/server/client";
import { getConfig } from "../../config/server/config";
import { readExportStats, type TelemetryStats } from "../../telemetry/stats-store";

export interface ComponentHealth {
  ok: boolean;
  latencyMs: number;
  detail: string;
}

export interface HealthReport {
  status: "ok" | "degraded";
  database: ComponentHealth & { provider: string };
  temporal: ComponentHealth & { namespace: string };
  /** Informational: workers seen polling the task queue recently (runs wait while there are none). */
  workers: { taskQueue: string; pollers: number };
  /** Informational: the OTLP export's counts over every worker (null: off, or nothing exported yet); drops show here. */
  otlpExport: TelemetryStats | null;
  /**
   * Informational: ledger writes the search index, facets and metric rollups have not taken in yet,
   * and how long the oldest has waited (the worker's deriver takes them in within ~100 ms; a growing
   * lag means no worker is deriving). Never makes the report unhealthy; null when the database
   * could not be read.
   */
  derived: DeriveLag | null;
  checkedAt: string;
}

const TIMEOUT_MS = 2000;

async function timed(check: () => Promise<string>): Promise<ComponentHealth> {
  const started = performance.now();
  try {
    const detail = await Promise.race([
      check(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS)),
    ]);
    return { ok: true, latencyMs: Math.round(performance.now() - started), detail };
  } catch (error) {
    // Connection errors can carry hostnames and credentials: log them, report a fixed phrase.
    console.error("health check failed:", error instanceof Error ? error.message : error);
    return { ok: false, latencyMs: Math.round(performance.now() - started), detail: "unreachable" };
  }
}

async function countPollers(namespace: string, taskQueue: string): Promise<number> {
  try {
    const connection = getTemporalConnection();
    const response = await connection.withDeadline(Date.now() + TIMEOUT_MS, () =>
      connection.workflowService.describeTaskQueue({ namespace, taskQueue: { name: taskQueue }, taskQueueType: 1 }),
    );
    return response.pollers?.length ?? 0;
  } catch {
    return 0;
  }
}

/** Probes the database and Temporal concurrently, each bounded by a short timeout. */
async function probe(): Promise<[ComponentHealth, ComponentHealth]> {
  return Promise.all([
    timed(async () => {
      await getDb().$queryRawUnsafe("SELECT 1");
      return "reachable";
    }),
    timed(async () => {
      const connection = getTemporalConnection();
      const response = await connection.withDeadline(Date.now() + TIMEOUT_MS, () => connection.healthService.check({}));
      if (response.status !== 1) throw new Error(`health status ${response.status}`);
      return "serving";
    }),
  ]);
}

/**
 * Whether the system is healthy, and nothing else: what anyone may ask without
 * signing in (a load balancer, `npm start`). The rest of the report names the
 * namespace, the task queue and the export's counts (issue 36 §1), and costs a
 * task-queue describe and two reads more.
 */
export async function checkLiveness(): Promise<Pick<HealthReport, "status">> {
  const [database, temporal] = await probe();
  return { status: database.ok && temporal.ok ? "ok" : "degraded" };
}

/** The whole report, for a signed-in reader: both probes, the task queue's pollers, the export's counts and the derive lag. */
export async function checkHealth(): Promise<HealthReport> {
  const config = getConfig();
  const [database, temporal] = await probe();
  const pollers = temporal.ok ? await countPollers(config.temporal.namespace, config.temporal.taskQueue) : 0;
  const [otlpExport, derived] = database.ok ? await Promise.all([readExportStats(getDb()).catch(() => null), readDeriveLag(getDb()).catch(() => null)]) : [null, null];
  return {
    status: database.ok && temporal.ok ? "ok" : "degraded",
    workers: { taskQueue: config.temporal.taskQueue, pollers },
    otlpExport,
    derived,
    database: { ...database, provider: config.databaseProvider },
    temporal: { ...temporal, namespace: config.temporal.namespace },
    checkedAt: new Date().toISOString(),
  };
}
