import "server-only";
import { getDb } from "../../db/server/db";
import { getTemporalConnection } from "../../temporal/server/client";
import { getConfig } from "../../config/server/config";

export interface ComponentHealth {
  ok: boolean;
  latencyMs: number;
  detail: string;
}

export interface HealthReport {
  status: "ok" | "degraded";
  database: ComponentHealth & { provider: string };
  temporal: ComponentHealth & { namespace: string };
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

/** Probes the database and Temporal concurrently, each bounded by a short timeout. */
export async function checkHealth(): Promise<HealthReport> {
  const config = getConfig();
  const [database, temporal] = await Promise.all([
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
  return {
    status: database.ok && temporal.ok ? "ok" : "degraded",
    database: { ...database, provider: config.databaseProvider },
    temporal: { ...temporal, namespace: config.temporal.namespace },
    checkedAt: new Date().toISOString(),
  };
}
