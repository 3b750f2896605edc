// Which stdio commands may run at all, and with which environment: an operator
// decision made in the environment (ZAP_MCP_STDIO_ALLOWLIST), checked when an
// admin registers a server and again by the worker right before it spawns one
// (the registry row could be old, or written around the registry).
//
// An entry binds the whole start-up: the command and its arguments, compared
// as a list (never as a space-joined line), and the names of the environment
// variables the child may receive. Some names change how an interpreter or the
// dynamic loader starts (NODE_OPTIONS, LD_PRELOAD, PYTHONSTARTUP, …): with one
// of them, an admin's "secret" is code run on the worker. They are refused
// whatever the list says: at configuration, at registration and at spawn.
import { z } from "zod";

/**
 * The bundled demo server as it is registered: command, then arguments. The only stdio server allowed when
 * ZAP_MCP_STDIO_ALLOWLIST is unset. The worker starts it with these paths resolved against its install
 * directory (worker/tools/mcp.ts), since no child starts in the project root. Here, below lib/mcp,
 * because the configuration parses the allowlist.
 */
export const DEMO_MCP_ARGV = ["node", "--import", "tsx", "worker/tools/mcp-demo-server.ts"] as const;

/** Environment names the worker sets for every stdio server itself (never a registration's). */
export const RESERVED_ENV_NAMES = ["PATH", "HOME"] as const;

/** One allowed stdio command: exactly this command and these arguments, with at most these environment variables. */
export interface StdioAllowEntry {
  command: string;
  args: string[];
  /** Names of the environment variables (the server's stored secrets) this command may receive. */
  env: string[];
}

/** What ZAP_MCP_STDIO_ALLOWLIST unset means: the bundled demo server, which may receive KB_TOKEN (a demo of a sealed secret). */
export const DEFAULT_STDIO_ALLOWLIST: readonly StdioAllowEntry[] = [{ command: DEMO_MCP_ARGV[0], args: DEMO_MCP_ARGV.slice(1), env: ["KB_TOKEN"] }];

/** Names the worker sets itself for every child. */
const RESERVED = new Set<string>(RESERVED_ENV_NAMES);

/**
 * Variables that change how a program starts rather than what it is told: preloaded code, module search
 * paths, start-up scripts, interpreter options, package-manager and git configuration (npx, uvx and git
 * fetch and run code as they say). Compared case-insensitively. NODE_ENV is the one NODE_* name let through.
 */
const START_UP_EXACT = new Set(
  [
    "BASH_ENV", "ENV", "SHELL", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "IFS", "CDPATH", "GLOBIGNORE", "ZDOTDIR",
    "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "JAVA_OPTS", "CLASSPATH",
    "GCONV_PATH", "GLIBC_TUNABLES", "HOSTALIASES", "LOCPATH", "NLSPATH", "MALLOC_CONF",
    "OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES", "SSLKEYLOGFILE",
    "LUA_INIT", "LUA_PATH", "LUA_CPATH", "PHPRC", "PHP_INI_SCAN_DIR", "TCLLIBPATH", "R_PROFILE", "R_PROFILE_USER",
    "GEMRC", "GEM_HOME", "GEM_PATH", "ERL_AFLAGS", "ERL_FLAGS", "ERL_ZFLAGS", "ERL_LIBS", "DOTNET_STARTUP_HOOKS",
  ].map((n) => n.toUpperCase()),
);
const START_UP_PREFIXES = [
  "LD_", "DYLD_", "NODE_", "NPM_CONFIG_", "YARN_", "PNPM_", "COREPACK_", "BUN_", "DENO_", "TSX_",
  "PYTHON", "PIP_", "UV_", "PERL", "RUBY", "BUNDLE_", "BASH_FUNC_", "GIT_", "CORECLR_", "COR_", "COMPLUS_", "DOTNET_",
];
const START_UP_ALLOWED = new Set(["NODE_ENV"]);

/** Whether `name` is a variable no MCP server may ever receive, whatever the allowlist says. */
export function isStartUpVariable(name: string): boolean {
  const upper = name.toUpperCase();
  if (START_UP_ALLOWED.has(upper)) return false;
  return START_UP_EXACT.has(upper) || START_UP_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

/** Why `name` may never be given to an MCP server, or null. */
function neverAllowed(name: string): string | null {
  if (RESERVED.has(name)) return `${name} is set by the worker for every server`;
  if (isStartUpVariable(name)) {
    return `${name} changes how the server's program starts (preloaded code, search paths, interpreter options), so it is never passed to an MCP server, whatever the operator's allowlist says`;
  }
  return null;
}

/** The allowlist entry for exactly this command and these arguments (element by element), or null. */
export function stdioAllowEntry(allowlist: readonly StdioAllowEntry[] | null, command: string, args: readonly string[]): StdioAllowEntry | null {
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);
  return (allowlist ?? DEFAULT_STDIO_ALLOWLIST).find((entry) => entry.command === command && same(entry.args, args)) ?? null;
}

/** Whether `command args…` is an allowed stdio command (ZAP_MCP_STDIO_ALLOWLIST, else only the bundled demo server). */
export function stdioCommandAllowed(allowlist: readonly StdioAllowEntry[] | null, command: string, args: readonly string[]): boolean {
  return stdioAllowEntry(allowlist, command, args) !== null;
}

/** The environment variable names this entry may not receive, each with a sentence naming it. */
export function refusedEnvNames(entry: StdioAllowEntry, names: readonly string[]): { name: string; message: string }[] {
  return names.flatMap((name) => {
    const never = neverAllowed(name);
    if (never) return [{ name, message: never }];
    if (entry.env.includes(name)) return [];
    const allowed = entry.env.length > 0 ? `only ${entry.env.join(", ")}` : "none";
    return [{ name, message: `${name} is not among the environment variables the operator allows this command (ZAP_MCP_STDIO_ALLOWLIST; ${allowed})` }];
  });
}

export const STDIO_NOT_ALLOWED_MESSAGE =
  "this command and its arguments are not on the operator's stdio allowlist (ZAP_MCP_STDIO_ALLOWLIST; by default only the bundled demo server)";

const envNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]{0,127}$/, "an environment variable name: letters, digits, _ or - (starting with a letter or _)");
const entrySchema = z.strictObject({
  command: z.string().min(1, "name the command"),
  args: z.array(z.string()).default([]),
  env: z.array(envNameSchema).default([]),
});

/**
 * Parses ZAP_MCP_STDIO_ALLOWLIST. Two forms:
 * - JSON, a list of entries: `[{"command":"npx","args":["-y","@acme/mcp-server"],"env":["ACME_TOKEN"]}]`;
 * - the older form, command lines separated by ";", each split at white space into command and arguments,
 *   with no environment variables.
 * An entry naming a variable no server may receive is an error, so the operator learns it at start-up.
 */
export function parseStdioAllowlist(text: string): { ok: true; entries: StdioAllowEntry[] } | { ok: false; message: string } {
  const trimmed = text.trim();
  let entries: StdioAllowEntry[];
  if (trimmed.startsWith("[")) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch {
      return { ok: false, message: 'expected a JSON list of {"command", "args", "env"} entries, or command lines separated by ";"' };
    }
    const parsed = z.array(entrySchema).safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, message: `entry ${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}` };
    }
    entries = parsed.data;
  } else {
    entries = trimmed
      .split(";")
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => {
        const [command = "", ...args] = line.split(/\s+/);
        return { command, args, env: [] };
      });
  }
  for (const [i, entry] of entries.entries()) {
    for (const name of entry.env) {
      const never = neverAllowed(name);
      if (never) return { ok: false, message: `entry ${i} (${entry.command}): ${never}` };
    }
  }
  return { ok: true, entries };
}
