// `npm run agent -- <agent> "<task>" [--context '{"customer":{"name":"Ada"}}'] [--image photo.png ...]`
// Starts a run of a saved agent against the running stack (npm start) and
// prints its events as they happen. With `--server <url>` (or ZAP_URL) it runs
// on a remote server through its HTTP API instead, with the API key in
// ZAP_API_KEY or `--api-key-file <path>` (scripts/lib/run-agent-remote.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { Client, Connection } from "@temporalio/client";
import { parseEnv } from "../lib/config/env";
import { createDb } from "../lib/db/prisma";
import { createEngine } from "../lib/engine/client";
import { catalogOptions } from "../lib/models/catalog";
import { zapPayloadCodecs } from "../lib/temporal/payload-codecs";
import { temporalConnectionOptions } from "../lib/temporal/connection-options";
import { loadDotenv } from "./lib/dotenv";
import { ensureAuthSecret } from "./lib/auth-secret";
import { configuredKey } from "../lib/crypto/keys";
import { AppError } from "../lib/errors";
import { describeEvent } from "./lib/describe-event";
import { runRemote } from "./lib/run-agent-remote";

const USAGE =
  'usage: npm run agent -- [--server <url> [--api-key-file <path>]] <agent> "<task>" [--context \'{"key":"value"}\'] [--image file.png ...]   (agents: support-triage, research-loop, treasury, invoice-triage, help-desk, front-desk, trip-planner, image-describer)';

/** The values of a repeatable flag (`--image a.png --image b.jpg`). */
function flagValues(name: string): string[] {
  return process.argv.flatMap((arg, i) => (arg === name && process.argv[i + 1] !== undefined ? [process.argv[i + 1] as string] : []));
}

async function main(): Promise<void> {
  const [agentName, task] = process.argv.slice(2).filter((a, i, all) => !a.startsWith("--") && !all[i - 1]?.startsWith("--"));
  // Sent as base64, as the HTTP API takes them; the engine sniffs and checks the bytes (PNG, JPEG, WebP, GIF; 10 MB).
  const images = flagValues("--image").map((file) => ({ data: readFileSync(file).toString("base64"), name: path.basename(file) }));
  const contextFlag = process.argv.indexOf("--context");
  if (!agentName || !task) {
    console.error(USAGE);
    process.exit(2);
  }
  if (process.argv.some((arg) => arg === "--api-key" || arg.startsWith("--api-key="))) {
    console.error("✗ --api-key is not taken: a command line is readable by every user of the machine (ps) and stays in shell history; set ZAP_API_KEY or pass --api-key-file <path>");
    process.exit(2);
  }
  loadDotenv();
  const server = flagValues("--server")[0] ?? process.env.ZAP_URL;
  if (server) {
    let context: Record<string, unknown>;
    try {
      context = contextFlag > 0 ? (JSON.parse(process.argv[contextFlag + 1] ?? "{}") as Record<string, unknown>) : {};
    } catch (error) {
      console.error(`✗ --context is not JSON: ${(error as Error).message}`);
      process.exit(2);
    }
    const input = { graph: agentName, task, context, ...(images.length ? { images } : {}) };
    return runRemote({ server, envKey: process.env.ZAP_API_KEY, keyFile: flagValues("--api-key-file")[0], input });
  }
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
    const context = contextFlag > 0 ? (JSON.parse(process.argv[contextFlag + 1] ?? "{}") as Record<string, unknown>) : {};
    const { runId } = await engine.startRun({ graphName: agentName, task, context, ...(images.length ? { images } : {}) });
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

await main();
