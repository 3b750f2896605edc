// `npm run agent -- <agent> "<task>" [--context '{"customer":{"name":"Ada"}}'] [--image photo.png ...]`
// Starts a run of a saved agent against the running stack (npm start) and
// prints its events as they happen.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Client, Connection } from "@temporalio/client";
import { parseEnv } from "../lib/config/env";
import { createDb } from "../lib/db/prisma";
import { createEngine } from "../lib/engine/client";
import { catalogOptions } from "../lib/models/catalog";
import type { RunEvent } from "../lib/contract/types";
import { zapPayloadCodecs } from "../lib/temporal/payload-codecs";
import { temporalConnectionOptions } from "../lib/temporal/connection-options";
import { loadDotenv } from "./lib/dotenv";
import { ensureAuthSecret } from "./lib/auth-secret";
import { configuredKey } from "../lib/crypto/keys";
import { AppError } from "../lib/errors";

function describeEvent(e: RunEvent): string {
  switch (e.type) {
    case "run_started":
      return `run started: ${e.agentName}`;
    case "iteration_started":
      return `iteration ${e.iteration}`;
    case "inference_completed":
      return `  model ${e.model}: ${e.toolCalls} tool call(s), ${e.usage.inputTokens}+${e.usage.outputTokens} tokens, ${e.latencyMs} ms`;
    case "tool_call_started":
      return `  → ${e.tool} ${e.arguments}`;
    case "tool_call_completed":
      return `  ← ${e.tool} ${e.outcome} (${e.durationMs} ms): ${e.result.slice(0, 160)}`;
    case "approval_requested":
      return `  ⏸ approval needed for ${e.approval.toolName} (id ${e.approval.id}, role ${e.approval.requiredRole ?? "any approver"})`;
    case "approval_decided":
      return `  ▶ approval ${e.status}${e.decidedBy ? ` by ${e.decidedBy}` : ""}${e.reason ? `: ${e.reason}` : ""}`;
    case "sub_agent_message":
      return `  ⇢ ${e.agentName} (turn ${e.turn}): ${e.message}`;
    case "sub_agent_reply":
      return `  ⇠ ${e.agentName}: ${e.response.slice(0, 160)}`;
    case "routing_decided": {
      const d = e.decision;
      return `  ⤳ ${d.router} routes to ${d.chosen} (target ${d.target}, confidence ${d.confidence} vs ${d.threshold}${d.fallbackTaken ? ", fallback taken" : ""}): ${d.reason}`;
    }
    case "routed_agent_failed":
      return `  ✗ ${e.agentName} failed (attempt ${e.attempt}): ${e.reason}`;
    case "handoff":
      return `  ⇒ handoff ${e.from} → ${e.to}: ${e.reason}`;
    case "output_invalid":
      return `  ✗ answer failed its schema (${e.errors.join("; ")})${e.repairing ? ", asking for a repair" : ""}`;
    case "budget_extension_requested":
      return `  ⏸ token budget reached (${e.used} of ${e.limit}): asking an approver for ${e.requested} more`;
    case "run_completed":
      return `completed: ${e.output}`;
    case "run_failed":
      return `failed (${e.reason}): ${e.message}${e.details?.errors ? `\n  errors: ${e.details.errors.join("; ")}` : ""}`;
    default:
      return `  ${e.type}`;
  }
}

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
    console.error('usage: npm run agent -- <agent> "<task>" [--context \'{"key":"value"}\'] [--image file.png ...]   (agents: support-triage, research-loop, treasury, invoice-triage, help-desk, front-desk, trip-planner, image-describer)');
    process.exit(2);
  }
  loadDotenv();
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
