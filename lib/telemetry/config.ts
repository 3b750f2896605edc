// Which OTLP endpoint finished runs are exported to, read from the standard
// OpenTelemetry variables (the same names every OTel SDK reads), so a Phoenix,
// Langfuse or collector set-up written for other tools works here unchanged.
// Off unless an endpoint is set. Browser-safe: zod only.
import { z } from "zod";

type RawEnv = Record<string, string | undefined>;

/** What the exporter needs, parsed once at boot. */
export interface TelemetryConfig {
  /** The full traces URL (…/v1/traces). */
  tracesUrl: string;
  /** Request headers (e.g. an API key); never logged. */
  headers: Record<string, string>;
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES, e.g. `openinference.project.name=zap` for Phoenix's project. */
  resourceAttributes: Record<string, string>;
  timeoutMs: number;
  /** The bounded queue: spans beyond it are dropped (and counted), never waited for. */
  maxQueueSize: number;
  maxExportBatchSize: number;
  scheduleDelayMs: number;
}

/** A bad OTEL_* variable, named in the message (its value is not echoed: headers carry keys). */
export class TelemetryConfigError extends Error {
  constructor(readonly variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = "TelemetryConfigError";
  }
}

/** `key1=value1,key2=value2` with percent-encoded values (the OTel spec's format for headers and resource attributes). */
function parseKeyValueList(variable: string, text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!text) return out;
  for (const item of text.split(",")) {
    if (!item.trim()) continue;
    const at = item.indexOf("=");
    if (at <= 0) throw new TelemetryConfigError(variable, "expected key=value pairs separated by commas");
    const key = item.slice(0, at).trim();
    try {
      out[key] = decodeURIComponent(item.slice(at + 1).trim());
    } catch {
      throw new TelemetryConfigError(variable, `the value of "${key}" is not valid percent-encoding`);
    }
  }
  return out;
}

const httpUrl = z.url({ protocol: /^https?$/, error: "expected an http(s) URL" });

function positiveInt(env: RawEnv, variable: string, fallback: number, max: number): number {
  const text = env[variable];
  if (text === undefined || text === "") return fallback;
  const parsed = z.coerce.number().int().min(1).max(max).safeParse(text);
  if (!parsed.success) throw new TelemetryConfigError(variable, `expected a whole number from 1 to ${max}`);
  return parsed.data;
}

function url(env: RawEnv, variable: string): string | undefined {
  const text = env[variable];
  if (text === undefined || text === "") return undefined;
  const parsed = httpUrl.safeParse(text);
  if (!parsed.success) throw new TelemetryConfigError(variable, "expected an http(s) URL");
  return parsed.data;
}

/** The traces URL: the signal-specific variable as is, else the base endpoint with /v1/traces (as the spec says). */
function tracesUrlOf(env: RawEnv): string | null {
  const traces = url(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  if (traces) return traces;
  const base = url(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  return base ? `${base.replace(/\/+$/, "")}/v1/traces` : null;
}

const SUPPORTED_PROTOCOL = "http/protobuf";

/**
 * The export's configuration, or null when it is off: no endpoint set,
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. Throws TelemetryConfigError on a bad value.
 */
export function parseTelemetryEnv(env: RawEnv): TelemetryConfig | null {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return null;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return null;
  const tracesUrl = tracesUrlOf(env);
  if (!tracesUrl) return null;
  const protocolVariable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL" : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const protocol = env[protocolVariable]?.trim() || SUPPORTED_PROTOCOL;
  if (protocol !== SUPPORTED_PROTOCOL) throw new TelemetryConfigError(protocolVariable, `only ${SUPPORTED_PROTOCOL} is supported (OTLP over HTTP); got "${protocol}"`);
  const timeoutVariable = env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ? "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT" : "OTEL_EXPORTER_OTLP_TIMEOUT";
  const maxQueueSize = positiveInt(env, "OTEL_BSP_MAX_QUEUE_SIZE", 2048, 1_000_000);
  return {
    tracesUrl,
    headers: { ...parseKeyValueList("OTEL_EXPORTER_OTLP_HEADERS", env.OTEL_EXPORTER_OTLP_HEADERS), ...parseKeyValueList("OTEL_EXPORTER_OTLP_TRACES_HEADERS", env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) },
    serviceName: env.OTEL_SERVICE_NAME?.trim() || "zap-studio",
    resourceAttributes: parseKeyValueList("OTEL_RESOURCE_ATTRIBUTES", env.OTEL_RESOURCE_ATTRIBUTES),
    timeoutMs: positiveInt(env, timeoutVariable, 10_000, 600_000),
    maxQueueSize,
    // A batch larger than the queue could never fill (the SDK clamps it too).
    maxExportBatchSize: Math.min(positiveInt(env, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 512, 1_000_000), maxQueueSize),
    scheduleDelayMs: positiveInt(env, "OTEL_BSP_SCHEDULE_DELAY", 5000, 600_000),
  };
}

/** Where the export goes, for a log line: the URL without credentials or query. */
export function describeEndpoint(config: TelemetryConfig): string {
  const u = new URL(config.tracesUrl);
  return `${u.protocol}//${u.host}${u.pathname}`;
}
