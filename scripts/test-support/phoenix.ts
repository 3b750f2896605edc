// Arize Phoenix (`arize-phoenix` on PyPI), a real OpenTelemetry receiver for
// the OTLP export's test (worker/engine-tests/phoenix-export.int.test.ts).
// It is about 850 MB and takes minutes to install, so nothing installs it
// implicitly and it lives outside the repository, in a cache every clone
// shares: `npx tsx scripts/test-support/phoenix.ts install` puts it in
// ~/.cache/zap-phoenix (or $ZAP_PHOENIX_HOME), and the test is collected only
// where vitest.config.ts finds its `phoenix` command (docs/testing.md).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { run } from "../lib/run";
import { freePort } from "./ports";

/** Pinned, as the Temporal CLI is: two clones must test against the same Phoenix. */
export const PHOENIX_VERSION = "20.26.1";

/** Where the virtual environment goes: $ZAP_PHOENIX_HOME, else ~/.cache/zap-phoenix. */
export function phoenixHome(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.ZAP_PHOENIX_HOME || path.join(os.homedir(), ".cache", "zap-phoenix");
}

/** The `phoenix` command: $ZAP_PHOENIX (used as given), else the one installed in phoenixHome(), else null. vitest.config.ts uses the same rule. */
export function findPhoenix(env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  if (env.ZAP_PHOENIX) return env.ZAP_PHOENIX;
  const local = path.join(phoenixHome(env), "venv", "bin", "phoenix");
  return existsSync(local) ? local : null;
}

/** Installs Phoenix into phoenixHome()/venv (minutes; ~850 MB): python3 -m venv, then pip install. */
export async function installPhoenix(): Promise<string> {
  const venv = path.join(phoenixHome(), "venv");
  console.log(`▸ installing arize-phoenix ${PHOENIX_VERSION} into ${venv} (about 850 MB, a few minutes)…`);
  const created = await run("python3", ["-m", "venv", venv], { echo: true });
  if (created.code !== 0) throw new Error(`python3 -m venv failed (exit ${created.code}): ${created.stderr.trim()}`);
  const pip = await run(path.join(venv, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", `arize-phoenix==${PHOENIX_VERSION}`], { echo: true });
  if (pip.code !== 0) throw new Error(`pip install arize-phoenix failed (exit ${pip.code}): ${pip.stderr.trim().split("\n").slice(-5).join(" | ")}`);
  const command = path.join(venv, "bin", "phoenix");
  if (!existsSync(command)) throw new Error(`the install has no ${command}`);
  return command;
}

/** A span as Phoenix's REST API returns it (GET /v1/projects/:project/spans). */
export interface PhoenixSpan {
  name: string;
  context: { trace_id: string; span_id: string };
  parent_id: string | null;
  span_kind: string;
  start_time: string;
  end_time: string;
  status_code: string;
  attributes: Record<string, unknown>;
}

export interface PhoenixServer {
  /** Where to send traces: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT. */
  tracesUrl: string;
  baseUrl: string;
  /** Every span of a project (paging through the REST API). */
  spans(project: string): Promise<PhoenixSpan[]>;
  log(): string;
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Starts Phoenix on free ports with a throw-away working directory; resolves once its REST API answers (about 20 s). */
export async function startPhoenix(options: { command: string; readyTimeoutMs?: number }): Promise<PhoenixServer> {
  const [port, grpcPort] = [await freePort(), await freePort()];
  const workingDir = mkdtempSync(path.join(os.tmpdir(), "zap-phoenix-"));
  const env = { ...process.env, PHOENIX_WORKING_DIR: workingDir, PHOENIX_PORT: String(port), PHOENIX_GRPC_PORT: String(grpcPort), PHOENIX_HOST: "127.0.0.1" };
  const child = spawn(options.command, ["serve"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-100_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exit: { why: string | null } = { why: null };
  child.once("error", (error) => (exit.why = `could not start: ${error.message}`));
  child.once("exit", (code, signal) => (exit.why = `exited (${signal ?? code})`));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child);
    rmSync(workingDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  while (!(await answers(`${baseUrl}/v1/projects`))) {
    if (exit.why || Date.now() > deadline) {
      await stop();
      throw new Error(`Phoenix did not start (${exit.why ?? "no answer in time"}): ${output.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    tracesUrl: `${baseUrl}/v1/traces`,
    baseUrl,
    async spans(project) {
      const out: PhoenixSpan[] = [];
      let cursor: string | null = null;
      do {
        const query = new URLSearchParams({ limit: "1000", ...(cursor ? { cursor } : {}) });
        const response = await fetch(`${baseUrl}/v1/projects/${encodeURIComponent(project)}/spans?${query}`);
        // A project appears with its first span: until then Phoenix answers 404.
        if (response.status === 404) return [];
        if (!response.ok) throw new Error(`Phoenix answered ${response.status}: ${await response.text()}`);
        const page = (await response.json()) as { data: PhoenixSpan[]; next_cursor: string | null };
        out.push(...page.data);
        cursor = page.next_cursor;
      } while (cursor);
      return out;
    },
    log: () => output,
    stop,
  };
}

// `npx tsx scripts/test-support/phoenix.ts install`: the explicit, one-time install.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename) && process.argv[2] === "install") {
  const found = findPhoenix();
  if (found) console.log(`Phoenix is already installed: ${found}`);
  else console.log(`Phoenix installed: ${await installPhoenix()}`);
}
