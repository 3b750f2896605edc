// `npm run agent -- <agent> "<task>"` without a server: the run starts straight
// on Temporal and the database of this machine's stack (npm start), signed with
// the same key material as the web server's, and its events print as they
// happen. Loaded only for this mode (scripts/run-agent.ts).
import { Client, Connection } from "@temporalio/client";
import { parseEnv } from "../../lib/config/env";
import { createDb } from "../../lib/db/prisma";
import { createEngine } from "../../lib/engine/client";
import { catalogOptions } from "../../lib/models/catalog";
import { zapPayloadCodecs } from "../../lib/temporal/payload-codecs";
import { temporalConnectionOptions } from "../../lib/temporal/connection-options";
import { configuredKey } from "../../lib/crypto/keys";
import { AppError } from "../../lib/errors";
import { checkSpendLimits } from "../../lib/spend-limits/server/spend";
import { ensureAuthSecret } from "./auth-secret";
import { describeEvent } from "./describe-event";

export interface LocalRun {
  graphName: string;
  task: string;
  /** The --context flag's JSON text ("{}" without it). */
  contextText: string;
  images: { data: string; name: string }[];
}

/** Starts the run on the local stack and prints its events until it ends; exit code 1 when it cannot start. */
export async function runLocal({ graphName, task, contextText, images }: LocalRun): Promise<void> {
  const config = parseEnv();
  const connection = await Connection.connect(temporalConnectionOptions(config));
  const db = createDb(config.databaseUrl);
  const payloadCodecs = zapPayloadCodecs(db, config);
  const temporal = new Client({ connection, namespace: config.temporal.namespace, dataConverter: { payloadCodecs } });
  // Runs are signed as the web server signs them (the worker refuses unsigned ones): with the same key material.
  const keyMaterial = config.keyMaterial ?? ensureAuthSecret(config.dataDir, process.env.AUTH_SECRET).secret;
  const decisionKey = configuredKey({ keyMaterial }, "approval-decisions");
  const engine = createEngine({ temporal, db, taskQueue: config.temporal.taskQueue, catalog: catalogOptions(config), egressAllowHosts: config.egress.allowHosts, decisionKey });
  try {
    const context = JSON.parse(contextText) as Record<string, unknown>;
    // Refused like every run start when a spend limit of the workspace or the graph is reached (no starter, no key).
    await checkSpendLimits(db, { graph: graphName, userId: "" });
    const { runId } = await engine.startRun({ graphName, task, context, ...(images.length ? { images } : {}) });
    console.log(`run ${runId}  (Temporal UI: ${config.temporal.uiUrl}/namespaces/${config.temporal.namespace}/workflows/${runId})`);
    for await (const event of engine.streamRun(runId)) {
      console.log(describeEvent(event));
      if (event.type === "run_completed" || event.type === "run_failed" || event.type === "run_cancelled") break;
    }
  } catch (error) {
    console.error(error instanceof AppError ? `✗ ${error.userMessage}${error.issues.length ? `: ${JSON.stringify(error.issues)}` : ""}` : error);
    process.exitCode = 1;
  } finally {
    await connection.close();
    await db.$disconnect();
  }
}
