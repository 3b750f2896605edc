// Arize Phoenix (`arize-phoenix` on PyPI), a real OpenTelemetry receiver for
// the OTLP export's test (worker/engine-tests/phoenix-export.int.test.ts).
// npm test provisions it as it does the Temporal CLI, but outside the
// checkout (about 850 MB, minutes to install): a virtual environment in
// $ZAP_CACHE_DIR (default ~/.cache/zap-studio, beside the local model) that
// every clone on the machine shares, keyed by the pinned version, the Python
// it runs on and the pinned dependencies (phoenix-constraints.txt). $ZAP_PHOENIX names a `phoenix`
// command to use instead. `npx tsx scripts/test-support/phoenix.ts install`
// provisions it by hand (docs/testing.md).
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { zapCacheDir } from "../lib/local-model";
import { run } from "../lib/run";
import { freePort } from "./ports";

/** Pinned, as the Temporal CLI is: two clones must test against the same Phoenix (phoenix.test.ts checks the constraints agree). */
export const PHOENIX_VERSION = "20.26.1";

/** Every package of the install pinned, passed to pip as constraints (-c). */
export const PHOENIX_CONSTRAINTS = path.join(import.meta.dirname, "phoenix-constraints.txt");

/** The cache folder's name: what makes one install differ from another (the pins, not their order or comments). */
export function phoenixCacheKey(pythonVersion: string, constraints: string): string {
  const lines = constraints
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .sort();
  const pins = createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 8);
  return `phoenix-${PHOENIX_VERSION}-py${pythonVersion}-${pins}`;
}

/** The Pythons PHOENIX_VERSION installs on (its Requires-Python: >=3.11,<3.15). */
const PHOENIX_PYTHONS = { min: 11, max: 14 };

/** "3.11" for the python3 on PATH: a venv runs on the interpreter that made it, so another Python is another install. */
async function pythonVersion(): Promise<string> {
  const needs = `Phoenix ${PHOENIX_VERSION} needs Python 3.${PHOENIX_PYTHONS.min}–3.${PHOENIX_PYTHONS.max} with its venv module`;
  const result = await run("python3", ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"]).catch((error: unknown) => ({ code: -1, stdout: "", stderr: String(error) }));
  if (result.code !== 0) throw new PhoenixUnavailableError(`python3 does not run (${result.stderr.trim() || `exit ${result.code}`}); ${needs}`);
  const version = result.stdout.trim();
  const [major, minor] = version.split(".").map(Number);
  // Said here rather than by pip, whose answer for a Python out of range is "no matching distribution".
  if (major !== 3 || minor === undefined || minor < PHOENIX_PYTHONS.min || minor > PHOENIX_PYTHONS.max) throw new PhoenixUnavailableError(`python3 is ${version}; ${needs}`);
  return version;
}

/** Why Phoenix could not be provisioned; the message names Phoenix, so a failed run says which component is missing. */
export class PhoenixUnavailableError extends Error {
  constructor(reason: string) {
    super(`Arize Phoenix ${PHOENIX_VERSION} could not be provisioned: ${reason}`);
    this.name = "PhoenixUnavailableError";
  }
}

// The command the cache hands out. The venv is built in a staging folder and renamed into place, so its console
// scripts' shebangs name the staging path: this wrapper runs pip's `phoenix` script with the venv's Python, found
// from the wrapper's own location.
const WRAPPER = `#!/bin/sh
here="$(dirname "$0")"
exec "$here/venv/bin/python" "$here/venv/bin/phoenix" "$@"
`;

/** The staging folders of installs whose process is gone (interrupted): each holds up to 850 MB. */
function removeAbandonedStaging(cache: string): void {
  for (const entry of existsSync(cache) ? readdirSync(cache) : []) {
    const pid = Number(/^\.phoenix-.+\.staging-(\d+)$/.exec(entry)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      // ESRCH: no such process (EPERM would be another user's live install).
      if ((error as NodeJS.ErrnoException).code === "ESRCH") rmSync(path.join(cache, entry), { recursive: true, force: true });
    }
  }
}

const tail = (text: string, lines = 8) => text.trim().split("\n").slice(-lines).join("\n");

/**
 * The `phoenix` command to run (`<command> serve`): $ZAP_PHOENIX as given, else the cached install, else a fresh
 * install into the cache (minutes). The install goes to a staging folder renamed into place once pip has put the
 * pinned release there, so an interrupted or failed install never looks complete; two installs at once both finish and the first rename wins.
 */
export async function provisionPhoenix(options: { log?: (line: string) => void } = {}): Promise<string> {
  if (process.env.ZAP_PHOENIX) return process.env.ZAP_PHOENIX;
  const log = options.log ?? ((line: string) => console.log(line));
  const cache = zapCacheDir();
  const constraints = readFileSync(PHOENIX_CONSTRAINTS, "utf8");
  const home = path.join(cache, phoenixCacheKey(await pythonVersion(), constraints));
  const command = path.join(home, "phoenix");
  // The venv's python is a link to the interpreter that made it: gone (pyenv uninstall), the install is stale.
  if (existsSync(command) && existsSync(path.join(home, "venv", "bin", "python"))) return command;
  if (existsSync(home)) rmSync(home, { recursive: true, force: true });

  mkdirSync(cache, { recursive: true });
  removeAbandonedStaging(cache);
  const staging = path.join(cache, `.${path.basename(home)}.staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  const started = performance.now();
  log(`▸ installing Arize Phoenix ${PHOENIX_VERSION} into ${home} (about 850 MB, a few minutes; once per machine)…`);
  try {
    const venv = path.join(staging, "venv");
    const created = await run("python3", ["-m", "venv", venv]);
    if (created.code !== 0) throw new PhoenixUnavailableError(`python3 -m venv failed (on Debian/Ubuntu: apt install python3-venv): ${tail(created.stderr || created.stdout)}`);
    const python = path.join(venv, "bin", "python");
    // Wheels over sources (--prefer-binary): nothing compiles. (pip's HTTP cache would spare a second download, but
    // the index here answers without cache headers, so pip keeps nothing: each cold install downloads them again.)
    // --no-compile: pip byte-compiles every module it installs, ~half of a cold install's CPU (101 against 49 CPU-s,
    // 2026-11-30) beside typecheck and unit; Python compiles the few hundred modules `phoenix serve` imports on first use.
    const pip = await run(python, ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--progress-bar", "off", "--prefer-binary", "--no-compile", "-c", PHOENIX_CONSTRAINTS, `arize-phoenix==${PHOENIX_VERSION}`]);
    writeFileSync(path.join(staging, "install.log"), pip.stdout + pip.stderr);
    if (pip.code !== 0) throw new PhoenixUnavailableError(`pip install arize-phoenix==${PHOENIX_VERSION} failed (exit ${pip.code}):\n${tail(pip.stderr || pip.stdout)}`);
    writeFileSync(path.join(staging, "phoenix"), WRAPPER, { mode: 0o755 });
    // What pip put there is the pinned release (a machine-wide pip constraint could have bent it). Importing
    // Phoenix would prove more but costs 13 s of CPU; a start that fails names the install all the same.
    const installed = await run(python, ["-c", "import importlib.metadata as m; print(m.version('arize-phoenix'))"]);
    if (installed.stdout.trim() !== PHOENIX_VERSION) throw new PhoenixUnavailableError(`pip installed arize-phoenix ${installed.stdout.trim() || "(none)"} ${tail(installed.stderr)}`);
    try {
      renameSync(staging, home);
    } catch (error) {
      // Another process's install got there first: use it.
      if (!existsSync(command)) throw error;
      rmSync(staging, { recursive: true, force: true });
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error instanceof PhoenixUnavailableError ? error : new PhoenixUnavailableError(error instanceof Error ? error.message : String(error));
  }
  log(`✓ Arize Phoenix ${PHOENIX_VERSION} installed in ${((performance.now() - started) / 1000).toFixed(0)} s: ${command}`);
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
  /** From spawn to the REST API's first answer. */
  startSeconds: number;
  /** Every span of a project (paging through the REST API). */
  spans(project: string): Promise<PhoenixSpan[]>;
  log(): string;
  stop(): Promise<void>;
}

async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * What Phoenix runs with: nothing of ours inherited that could point it elsewhere (a PHOENIX_SQL_DATABASE_URL
 * would write test spans into someone's database, an OTEL_* variable would trace Phoenix itself), SQLite in
 * the throw-away working directory, and the parts a test does not read turned off: usage telemetry, the agent
 * assistant and its sandboxes, the MCP server, fonts from the internet, the UI (`serve --no-ui` below). Most of
 * the start is Python importing Phoenix all the same (18 of 25 s on a loaded 2-core machine).
 */
export function phoenixEnv(inherited: NodeJS.ProcessEnv, workingDir: string, port: number, grpcPort: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...inherited };
  for (const name of Object.keys(env)) if (/^(PHOENIX_|OTEL_)/.test(name)) delete env[name];
  return {
    ...env,
    PHOENIX_WORKING_DIR: workingDir,
    PHOENIX_SQL_DATABASE_URL: `sqlite:///${path.join(workingDir, "phoenix.db")}`,
    PHOENIX_HOST: "127.0.0.1",
    PHOENIX_PORT: String(port),
    PHOENIX_GRPC_PORT: String(grpcPort),
    PHOENIX_TELEMETRY_ENABLED: "false",
    PHOENIX_ALLOW_EXTERNAL_RESOURCES: "false",
    PHOENIX_DISABLE_AGENT_ASSISTANT: "true",
    PHOENIX_AGENTS_DISABLE_BASH: "true",
    PHOENIX_ALLOWED_SANDBOX_PROVIDERS: "NONE",
    PHOENIX_ENABLE_MCP_SERVER: "false",
    PHOENIX_ENABLE_MCP_CODE_MODE: "false",
    PHOENIX_ENABLE_PROMETHEUS: "false",
  };
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

/**
 * Starts Phoenix on free ports with a throw-away working directory (SQLite) and resolves once its REST API
 * answers: mostly Python importing Phoenix, about 13 s of CPU. Ports are free when chosen, not when Phoenix
 * binds them seconds later: a port taken meanwhile costs one more start.
 */
export async function startPhoenix(options: { command: string; readyTimeoutMs?: number }): Promise<PhoenixServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options.command, options.readyTimeoutMs ?? 180_000);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt === 2) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startOnce(command: string, readyTimeoutMs: number): Promise<PhoenixServer> {
  const started = performance.now();
  const [port, grpcPort] = [await freePort(), await freePort()];
  const workingDir = mkdtempSync(path.join(os.tmpdir(), "zap-phoenix-"));
  const child = spawn(command, ["serve", "--no-ui"], { env: phoenixEnv(process.env, workingDir, port, grpcPort), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-100_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exit: { why: string | null } = { why: null };
  child.once("error", (error) => (exit.why = `could not start ${command}: ${error.message}`));
  child.once("exit", (code, signal) => (exit.why = `exited (${signal ?? code})`));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child);
    rmSync(workingDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + readyTimeoutMs;
  while (!(await answers(`${baseUrl}/v1/projects`))) {
    if (exit.why || Date.now() > deadline) {
      await stop();
      const why = `Arize Phoenix did not start (${exit.why ?? `no answer in ${readyTimeoutMs / 1000} s`}): ${output.slice(-2000)}`;
      throw /address already in use/i.test(output) ? new PortTakenError(why) : new Error(why);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    tracesUrl: `${baseUrl}/v1/traces`,
    baseUrl,
    startSeconds: (performance.now() - started) / 1000,
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

// `npx tsx scripts/test-support/phoenix.ts install`: provisions by hand what npm test would (prints the command).
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename) && process.argv[2] === "install") {
  console.log(`Phoenix: ${await provisionPhoenix()}`);
}
