// `npm run agent -- <agent> "<task>" [--context '{"customer":{"name":"Ada"}}'] [--image photo.png ...]`
// Starts a run of a saved agent against the running stack (npm start) and
// prints its events as they happen. With `--server <url>` (or ZAP_URL) it runs
// on a remote server through its HTTP API instead, with the API key in
// ZAP_API_KEY or `--api-key-file <path>` (scripts/lib/run-agent-remote.ts).
// `npm run agent -- schedules|webhooks …` manages triggers over the same API
// (scripts/lib/triggers-cli.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadDotenv } from "./lib/dotenv";
import { runRemote } from "./lib/run-agent-remote";
import { isTriggerCommand, runTriggersCommand } from "./lib/triggers-cli";

const USAGE =
  'usage: npm run agent -- [--server <url> [--api-key-file <path>]] <agent> "<task>" [--context \'{"key":"value"}\'] [--image file.png ...]   (agents: support-triage, research-loop, treasury, invoice-triage, help-desk, front-desk, trip-planner, image-describer)\n       npm run agent -- schedules|webhooks …   (npm run agent -- schedules help)';

/** The values of a repeatable flag (`--image a.png --image b.jpg`). */
function flagValues(name: string): string[] {
  return process.argv.flatMap((arg, i) => (arg === name && process.argv[i + 1] !== undefined ? [process.argv[i + 1] as string] : []));
}

async function main(): Promise<void> {
  // `schedules …` / `webhooks …`: a trigger command over the HTTP API (scripts/lib/triggers-cli.ts).
  if (isTriggerCommand(process.argv.slice(2))) {
    loadDotenv();
    process.exitCode = await runTriggersCommand(process.argv.slice(2), { env: process.env, out: (text) => console.log(text), err: (text) => console.error(text) });
    return;
  }
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
  // The local mode's modules (Temporal, Prisma, the engine) load only here: the remote and trigger commands start faster without them.
  const { runLocal } = await import("./lib/run-agent-local");
  await runLocal({ graphName: agentName, task, contextText: contextFlag > 0 ? (process.argv[contextFlag + 1] ?? "{}") : "{}", images });
}

await main();
