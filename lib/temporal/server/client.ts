import "server-only";
import { Client, Connection } from "@temporalio/client";
import { getConfig } from "../../config/server/config";
import { getDb } from "../../db/server/db";
import { zapPayloadCodecs } from "../payload-codecs";
import { temporalConnectionOptions } from "../connection-options";

interface TemporalHandle {
  connection: Connection;
  client: Client;
}

// One lazily-connected client per process (never one per request); kept on
// globalThis so dev-mode reloads reuse it.
const holder = globalThis as typeof globalThis & { zapTemporal?: TemporalHandle };

function handle(): TemporalHandle {
  if (!holder.zapTemporal) {
    const config = getConfig();
    const connection = Connection.lazy(temporalConnectionOptions(config));
    // Same codecs as the worker: large inputs go out by reference, large results and query answers come back
    // through them; with ZAP_PAYLOAD_KEY everything is encrypted.
    const payloadCodecs = zapPayloadCodecs(getDb(), config);
    holder.zapTemporal = { connection, client: new Client({ connection, namespace: config.temporal.namespace, dataConverter: { payloadCodecs } }) };
  }
  return holder.zapTemporal;
}

/** The shared Temporal client. Connects on first use; connect errors surface from the call that needed it. */
export function getTemporalClient(): Client {
  return handle().client;
}

/** The shared connection (health checks use its health service). */
export function getTemporalConnection(): Connection {
  return handle().connection;
}
