// The worker's OTLP exporter, from the standard OTEL_* variables (off without an endpoint).
import type { Db } from "../../lib/db/prisma";
import { describeEndpoint, parseTelemetryEnv } from "../../lib/telemetry/config";
import { createRunExporter, type RunExporter } from "../../lib/telemetry/exporter";

/** The exporter the environment asks for, or null; throws on a bad OTEL_* variable (named). */
export function runExporterFromEnv(db: Db, env: Record<string, string | undefined>): { exporter: RunExporter; endpoint: string } | null {
  const config = parseTelemetryEnv(env);
  if (!config) return null;
  return { exporter: createRunExporter({ db, config }), endpoint: describeEndpoint(config) };
}
