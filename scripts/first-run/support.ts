// Helpers of the first-run suite: a fresh clone that needs no network, `npm
// start` in it as a person would run it, its process tree, and an HTTP sign-in.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../lib/run";
import { markDependenciesInstalled } from "../lib/deps-fingerprint.mjs";

/**
 * Clones the repository at `ref` (a commit of this repository; HEAD by
 * default) into `dir` and gives it the repository's node_modules as a
 * hard-linked copy: no install, no network. (A symlink does not do: Turbopack
 * refuses a node_modules that resolves outside the project.) Returns the commit.
 */
export function cloneWithDependencies(dir: string, ref = "HEAD"): string {
  const commit = execFileSync("git", ["rev-parse", "--verify", `${ref}^{commit}`], { cwd: PROJECT_ROOT, encoding: "utf8" }).trim();
  execFileSync("git", ["clone", "--quiet", "--no-checkout", PROJECT_ROOT, dir]);
  execFileSync("git", ["checkout", "--quiet", commit], { cwd: dir });
  const source = path.join(PROJECT_ROOT, "node_modules");
  // Hard links need one filesystem; elsewhere (e.g. a tmpfs /tmp) a real copy, slower.
  const sameDevice = statSync(source).dev === statSync(dir).dev;
  execFileSync("cp", [sameDevice ? "-al" : "-a", source, path.join(dir, "node_modules")]);
  // The stamp says which package files node_modules was installed from; the
  // clone's own must match, or bootstrap would run `npm install` in it.
  markDependenciesInstalled(dir);
  return commit;
}

export interface ProcInfo {
  pid: number;
  ppid: number;
  /** Command line, arguments joined by spaces (a process may retitle itself, e.g. next-server). */
  command: string;
  cwd: string;
}

function readProc(pid: number): ProcInfo | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    const zombie = /^State:\s+Z/m.test(status);
    if (zombie) return null; // exited, not yet reaped: it holds nothing
    let cwd = "";
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      // another user's process, or gone meanwhile
    }
    return { pid, ppid, command, cwd };
  } catch {
    return null;
  }
}

/** Every live process (Linux /proc; zombies are not live). */
export function allProcesses(): ProcInfo[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => readProc(Number(entry)))
    .filter((p): p is ProcInfo => p !== null);
}

/** `root` and its live descendants. */
export function processTree(root: number): ProcInfo[] {
  const all = allProcesses();
  const result = all.filter((p) => p.pid === root);
  for (let i = 0; i < result.length; i++) {
    const parent = result[i];
    if (parent) result.push(...all.filter((p) => p.ppid === parent.pid));
  }
  return result;
}

export type StackPart = "temporal" | "worker" | "web" | "model";

function partOf(command: string): StackPart | undefined {
  if (command.includes("server start-dev")) return "temporal";
  if (command.includes("llama-server")) return "model";
  if (command.includes("worker/main.ts")) return "worker";
  if (command.startsWith("next-server") || /\bnext(\/dist\/bin\/next)? start\b/.test(command)) return "web";
  return undefined;
}

/** `npm start` run in a folder the way a person runs it, with its output collected. */
export class NpmStart {
  readonly child: ChildProcess;
  private output = "";
  private exitCode: number | null | undefined;
  private outputClosed = false;
  /** Every process seen under `npm start` (id → command line), to prove none outlives it. */
  readonly seen = new Map<number, string>();

  /** `markers`: paths only this stack's processes mention (the clone, its data folder); `args`: after `npm start --`. */
  constructor(
    cwd: string,
    env: NodeJS.ProcessEnv,
    private readonly markers: string[] = [cwd],
    args: string[] = [],
  ) {
    // Its own process group, so Ctrl-C can be sent to all of it as a terminal does.
    this.child = spawn("npm", ["start", ...(args.length ? ["--", ...args] : [])], { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    for (const stream of [this.child.stdout, this.child.stderr]) stream?.on("data", (chunk: Buffer) => void (this.output += chunk.toString()));
    this.child.on("exit", (code) => void (this.exitCode = code));
    this.child.on("close", () => void (this.outputClosed = true));
  }

  get text(): string {
    return this.output;
  }

  get exited(): boolean {
    return this.exitCode !== undefined;
  }

  /**
   * Whether everything that writes to npm's output has exited. npm itself
   * exits at once on Ctrl-C; the orchestrator, which shares its output, goes
   * on stopping the stack a little longer (in a terminal too).
   */
  get finished(): boolean {
    return this.outputClosed;
  }

  /** Why waiting on the stack is pointless (it exited), for `until`'s `abort`. */
  readonly gone = (): string | undefined => (this.exited ? `npm start exited (code ${this.exitCode}):\n${this.tail()}` : undefined);

  /** The last lines of the output, for failure messages. */
  tail(lines = 40): string {
    return this.output.trimEnd().split("\n").slice(-lines).join("\n");
  }

  /** The direct children of the orchestrator (the process running scripts/start.ts), by part of the stack. */
  parts(): Partial<Record<StackPart, number>> {
    const tree = processTree(this.child.pid ?? -1);
    for (const p of tree) this.seen.set(p.pid, p.command);
    // tsx runs start.ts in a child of its CLI: the orchestrator is the one whose children are the stack.
    const orchestrators = tree.filter((p) => p.command.includes("scripts/start.ts"));
    const parts: Partial<Record<StackPart, number>> = {};
    for (const p of tree) {
      const part = partOf(p.command);
      if (part && orchestrators.some((o) => o.pid === p.ppid)) parts[part] = p.pid;
    }
    return parts;
  }

  /** Sends Ctrl-C to the whole process group, as a terminal does. */
  interrupt(): void {
    if (this.child.pid !== undefined) process.kill(-this.child.pid, "SIGINT");
  }

  /** Live processes of this stack: seen under it and still the same, or naming its folders. */
  leftovers(): ProcInfo[] {
    return allProcesses().filter(
      (p) => this.seen.get(p.pid) === p.command || this.markers.some((marker) => p.command.includes(marker) || p.cwd.startsWith(marker)),
    );
  }

  /** Last resort after a failed test: SIGKILL the group and every process of this stack. */
  killEverything(): void {
    try {
      if (this.child.pid !== undefined && !this.exited) process.kill(-this.child.pid, "SIGKILL");
    } catch {
      // the group is gone already
    }
    for (const p of this.leftovers()) process.kill(p.pid, "SIGKILL");
  }
}

/** The cookies a response sets, by name; a later Set-Cookie of a name wins, as in a browser. */
function cookiesOf(response: Response): Map<string, string> {
  const jar = new Map<string, string>();
  for (const cookie of response.headers.getSetCookie()) {
    const pair = cookie.split(";")[0] ?? "";
    jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
  }
  return jar;
}

function cookieHeader(jar: Map<string, string>, only: (name: string) => boolean = () => true): string {
  return [...jar]
    .filter(([name, value]) => only(name) && value !== "")
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");
}

/**
 * Signs in through Auth.js's credentials endpoint, as the sign-in form does
 * (CSRF token and cookie first), and returns the session cookie(s) for a Cookie header.
 */
export async function signIn(origin: string, email: string, password: string): Promise<string> {
  const csrf = await fetch(`${origin}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${origin}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(cookiesOf(csrf)) },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${origin}/` }),
  });
  // Auth.js splits a large session token into `.0`, `.1`, … chunks.
  const session = cookieHeader(cookiesOf(response), (name) => /^authjs\.session-token(\.\d+)?$/.test(name));
  if (!session) throw new Error(`sign-in as ${email} set no session cookie (status ${response.status}, location ${response.headers.get("location")})`);
  return session;
}

/**
 * Polls `probe` until it returns something other than undefined, and returns
 * that. Fails at once when `abort` names a reason (e.g. npm start exited),
 * else after `timeoutMs` with `what` and the last probe error.
 */
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  options: { timeoutMs: number; intervalMs?: number; abort?: () => string | undefined },
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError = "";
  for (;;) {
    const reason = options.abort?.();
    if (reason) throw new Error(`${what}: ${reason}`);
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${options.timeoutMs / 1000} s${lastError ? ` (last error: ${lastError})` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 200));
  }
}
