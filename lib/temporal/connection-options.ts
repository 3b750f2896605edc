import { readFileSync } from "node:fs";
import type { AppConfig } from "../config/env";

/** TLS settings in the shape both @temporalio/client and @temporalio/worker accept. */
export interface TemporalTlsOptions {
  serverNameOverride?: string;
  serverRootCACertificate?: Buffer;
  clientCertPair?: { crt: Buffer; key: Buffer };
}

export interface TemporalConnectionOptions {
  address: string;
  tls?: TemporalTlsOptions | boolean;
  apiKey?: string;
}

function readPem(path: string, variable: string): Buffer {
  try {
    return readFileSync(path);
  } catch {
    throw new Error(`${variable}: cannot read the file ${path}`);
  }
}

/**
 * Connection options for the configured Temporal: plain gRPC for the local dev
 * server; TLS (optionally mTLS) and/or an API key for a cluster or Temporal Cloud.
 */
export function temporalConnectionOptions(config: AppConfig): TemporalConnectionOptions {
  const { address, tls, apiKey } = config.temporal;
  if (!tls) return { address, apiKey };
  const options: TemporalTlsOptions = {};
  if (tls.serverName) options.serverNameOverride = tls.serverName;
  if (tls.caPath) options.serverRootCACertificate = readPem(tls.caPath, "TEMPORAL_TLS_CA");
  if (tls.certPath && tls.keyPath) {
    options.clientCertPair = { crt: readPem(tls.certPath, "TEMPORAL_TLS_CERT"), key: readPem(tls.keyPath, "TEMPORAL_TLS_KEY") };
  }
  return { address, apiKey, tls: Object.keys(options).length > 0 ? options : true };
}
