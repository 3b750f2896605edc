// Starts the dashboard as a separate `next start` process (the production
// build in `.next`, see scripts/lib/next-build.ts), as `npm start` runs it:
// the scale-out test runs two of them on one database and task queue.
import { spawn, type ChildProcess } from "node:child_process";
import { bin, PROJECT_ROOT } from "../lib/run";

export interface WebServerProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port>: what the server calls its own origin (mutating requests must send it). */
  origin: string;
}

export interface WebServerOptions {
  port: number;
  /** DATABASE_URL, AUTH_SECRET, TEMPORAL_* and the like: every server of one deployment gets the same. */
  env: Record<string, string>;
}

/** Resolves once `/api/health` answers 200; rejects with the server's output if it exits first or never does. */
export async function startWebServer(options: WebServerOptions, timeoutMs = 90_000): Promise<WebServerProcess> {
  const origin = `http://127.0.0.1:${options.port}`;
  const child = spawn(bin("next"), ["start", "--port", String(options.port), "--hostname", "127.0.0.1"], {
    cwd: PROJECT_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", AUTH_TRUST_HOST: "true", ...options.env },
  });
  let output = "";
  const onData = (chunk: Buffer) => {
    if (process.env.ZAP_TEST_WEB_LOG) process.stderr.write(`[web ${options.port}] ${chunk.toString()}`);
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`next start on port ${options.port} exited early (${child.exitCode ?? child.signalCode}): ${output.slice(-2000)}`);
    const status = await fetch(`${origin}/api/health`).then((r) => r.status, () => 0);
    if (status === 200) return { child, origin };
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  child.kill("SIGKILL");
  throw new Error(`next start on port ${options.port} did not report healthy within ${timeoutMs / 1000} s: ${output.slice(-2000)}`);
}

/** Stops a web server (SIGTERM, then SIGKILL after a grace period). */
export async function stopWebServer(server: WebServerProcess, graceMs = 10_000): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}
