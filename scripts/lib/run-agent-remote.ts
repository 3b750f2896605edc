// `npm run agent -- --server <url> …` (or ZAP_URL): the run goes through the
// server's HTTP API with an API key and the TypeScript client, instead of
// straight to Temporal and the database as the local mode does. The key comes
// from ZAP_API_KEY or a file (--api-key-file), never from the command line: a
// process's arguments are readable by every user of the machine (ps,
// /proc/<pid>/cmdline) and stay in shell history.
import { readFileSync } from "node:fs";
import { ApiError, ZapClient, type StartRunInput } from "../../lib/client/zap-client";
import { describeEvent } from "./describe-event";

export interface RemoteRun {
  server: string;
  /** ZAP_API_KEY, when set. */
  envKey: string | undefined;
  /** --api-key-file, when given: its first line is the key. */
  keyFile: string | undefined;
  input: StartRunInput;
}

/** The key to use, or a one-line reason there is none (the trigger commands, scripts/lib/triggers-cli.ts, use it too). */
export function resolveKey(run: Pick<RemoteRun, "server" | "envKey" | "keyFile">): { key: string } | { error: string } {
  if (run.keyFile) {
    try {
      const key = readFileSync(run.keyFile, "utf8").split(/\r?\n/)[0]?.trim() ?? "";
      return key ? { key } : { error: `${run.keyFile} is empty: put the key (zap_…) on its first line` };
    } catch (error) {
      return { error: `cannot read --api-key-file ${run.keyFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
    }
  }
  const key = run.envKey?.trim();
  if (key) return { key };
  return { error: `no API key for ${run.server}: set ZAP_API_KEY or pass --api-key-file <path> (create a key on the account page or with npm run api-key -- create)` };
}

/**
 * Starts the run on the server and prints its events as the local mode does.
 * Exit codes: 2 without a usable key, 1 when the server refuses (its one-line
 * reason printed, a revoked key's included), 0 once the run has ended.
 */
export async function runRemote(run: RemoteRun): Promise<void> {
  const resolved = resolveKey(run);
  if ("error" in resolved) {
    console.error(`✗ ${resolved.error}`);
    process.exit(2);
  }
  let client: ZapClient;
  try {
    client = new ZapClient({ baseUrl: run.server, apiKey: resolved.key });
  } catch (error) {
    console.error(`✗ ${(error as Error).message}`);
    process.exit(2);
  }
  try {
    const { runId } = await client.startRun(run.input);
    console.log(`run ${runId}  (${run.server.replace(/\/+$/, "")}/runs/${encodeURIComponent(runId)})`);
    for await (const event of client.streamRun(runId)) {
      console.log(describeEvent(event));
      if (event.type === "run_completed" || event.type === "run_failed" || event.type === "run_cancelled") break;
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    console.error(`✗ ${error.message}${error.issues.length ? `: ${JSON.stringify(error.issues)}` : ""}`);
    process.exitCode = 1;
  }
}
