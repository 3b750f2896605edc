// Starts and probes the local Temporal dev server.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, openSync } from "node:fs";
import path from "node:path";
import { Connection } from "@temporalio/client";
import { devServerSearchAttributeFlags, SEARCH_ATTRIBUTES } from "../../lib/temporal/search-attributes";
import type { TemporalConnectionOptions } from "../../lib/temporal/connection-options";

/** Whether a Temporal frontend answers its health check at `options.address` within `timeoutMs`. */
export async function temporalIsServing(options: TemporalConnectionOptions, timeoutMs = 1500): Promise<boolean> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ ...options, connectTimeout: timeoutMs });
    const response = await connection.withDeadline(Date.now() + timeoutMs, () => connection!.healthService.check({}));
    return response.status === 1; // SERVING
  } catch {
    return false;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

export interface DevServerOptions {
  cli: string;
  host: string;
  port: number;
  uiPort: number;
  dbFile: string;
  namespace: string;
  logFile: string;
  /** Extra ports the dev server opens; fixed so parallel servers (tests) do not collide. */
  httpPort?: number;
  metricsPort?: number;
  headless?: boolean;
  /** Extra dynamic configuration (`--dynamic-config-value KEY=VALUE`); values are JSON. */
  dynamicConfig?: Record<string, string | number | boolean>;
}

/** Spawns `temporal server start-dev` with SQLite persistence and our search attributes. */
export function spawnDevServer(options: DevServerOptions): ChildProcess {
  mkdirSync(path.dirname(options.dbFile), { recursive: true });
  mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = openSync(options.logFile, "a");
  const args = [
    "server",
    "start-dev",
    "--ip",
    options.host,
    "--port",
    String(options.port),
    "--ui-port",
    String(options.uiPort),
    "--db-filename",
    options.dbFile,
    "--log-level",
    "warn",
    "--ui-disable-news-fetch",
    // Activities start in the reply to the workflow task that scheduled them,
    // saving a round trip per model call and per tool call.
    "--dynamic-config-value",
    "system.enableActivityEagerExecution=true",
    // WAL without a sync per commit: a local dev server survives process
    // crashes this way; it trades only power-loss durability for latency.
    "--sqlite-pragma",
    "journal_mode=wal",
    "--sqlite-pragma",
    "synchronous=normal",
    ...devServerSearchAttributeFlags(),
  ];
  if (options.namespace !== "default") args.push("--namespace", options.namespace);
  if (options.httpPort) args.push("--http-port", String(options.httpPort));
  if (options.metricsPort !== undefined) args.push("--metrics-port", String(options.metricsPort));
  if (options.headless) args.push("--headless");
  for (const [key, value] of Object.entries(options.dynamicConfig ?? {})) args.push("--dynamic-config-value", `${key}=${JSON.stringify(value)}`);
  return spawn(options.cli, args, { stdio: ["ignore", log, log] });
}

/** Polls until the server answers, failing early if the process exits. */
export async function waitForTemporal(
  options: TemporalConnectionOptions,
  child: ChildProcess | null,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null = null;
  child?.once("exit", (code) => {
    exited = code ?? 1;
  });
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`the Temporal dev server exited with code ${exited}`);
    if (await temporalIsServing(options, 1000)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Temporal did not answer at ${options.address} within ${Math.round(timeoutMs / 1000)} s`);
}

/** Registers any of our search attributes the namespace lacks (a server started elsewhere may not have them). */
export async function ensureSearchAttributes(options: TemporalConnectionOptions, namespace: string): Promise<string[]> {
  const connection = await Connection.connect(options);
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace });
    const known = new Set(Object.keys(existing.customAttributes ?? {}));
    const missing = SEARCH_ATTRIBUTES.filter((a) => !known.has(a.name));
    if (missing.length === 0) return [];
    const typeCodes = { Text: 1, Keyword: 2, Int: 3, Double: 4, Bool: 5, Datetime: 6, KeywordList: 7 } as const;
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((a) => [a.name, typeCodes[a.type]])),
    });
    return missing.map((a) => a.name);
  } finally {
    await connection.close();
  }
}
