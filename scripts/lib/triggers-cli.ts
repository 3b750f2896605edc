// `npm run agent -- schedules …` and `npm run agent -- webhooks …`: a run's
// triggers managed from a terminal, through the server's HTTP API with an API
// key and the TypeScript client (the same doors as the /schedules and
// /webhooks pages, so the same role checks and audit). Every command needs a
// server (--server or ZAP_URL) and a key (ZAP_API_KEY or --api-key-file).
// Exit codes: 0 done, 1 the server refused or could not be reached (its
// one-line reason printed), 2 a usage error.
import { readFileSync } from "node:fs";
import { ApiError, ZapClient } from "../../lib/client/zap-client";
import { describeSpec, type ScheduleCreateInput, type ScheduleView } from "../../lib/schedules/schemas";
import type { WebhookView } from "../../lib/webhooks/schemas";
import { resolveKey } from "./run-agent-remote";

export const TRIGGER_COMMANDS = ["schedules", "webhooks"] as const;
export type TriggerCommand = (typeof TRIGGER_COMMANDS)[number];

export const TRIGGERS_USAGE = [
  "usage: npm run agent -- [--server <url>] [--api-key-file <path>] schedules list [--graph <name>] [--json]",
  "       npm run agent -- schedules show <sch_…> [--json]",
  "       npm run agent -- schedules pause <sch_…> [--note \"why\"]",
  "       npm run agent -- schedules resume <sch_…>",
  "       npm run agent -- schedules run-now <sch_…>",
  "       npm run agent -- schedules create <schedule.json>   ({ name, graph, cron | intervalSeconds, task, … }: docs/schedules.md)",
  "       npm run agent -- webhooks list [--graph <name>] [--json]",
  "       npm run agent -- webhooks rotate-secret <whk_…>   (prints the new secret once)",
  "  the server is --server or ZAP_URL; the key ZAP_API_KEY or --api-key-file <path>",
].join("\n");

/** Flags that take a value; any other `--word` is a switch. */
const VALUE_FLAGS = new Set(["--server", "--api-key-file", "--graph", "--note"]);
const SWITCHES = new Set(["--json"]);

export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string>;
  switches: Set<string>;
}

class UsageError extends Error {}

/** Splits `argv` (without node and the script) into positional words, `--flag value` pairs and switches; unknown flags are a usage error. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const parsed: ParsedArgs = { positional: [], flags: new Map(), switches: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (VALUE_FLAGS.has(arg)) {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith("--")) throw new UsageError(`${arg} needs a value`);
      parsed.flags.set(arg, value);
      i++;
    } else if (SWITCHES.has(arg)) parsed.switches.add(arg);
    else if (arg === "--api-key" || arg.startsWith("--api-key=")) throw new UsageError("--api-key is not taken: a command line is readable by every user of the machine (ps) and stays in shell history; set ZAP_API_KEY or pass --api-key-file <path>");
    // Only the option's name: `--name=value` may carry something not to echo.
    else if (arg.startsWith("--")) throw new UsageError(`unknown option ${arg.split("=")[0]}`);
    else parsed.positional.push(arg);
  }
  return parsed;
}

/** Whether these arguments ask for a trigger command (the first positional word is `schedules` or `webhooks`). */
export function isTriggerCommand(argv: readonly string[]): boolean {
  try {
    const first = parseArgs(argv).positional[0];
    return (TRIGGER_COMMANDS as readonly string[]).includes(first ?? "");
  } catch {
    const first = argv.find((arg) => !arg.startsWith("--"));
    return (TRIGGER_COMMANDS as readonly string[]).includes(first ?? "");
  }
}

const when = (iso: string | null | undefined) => (iso ? iso.replace("T", " ").replace(/\.\d+Z$/, "Z") : "—");

/** One line per schedule: id, name, graph, spec, state, next firing, last outcome. */
export function scheduleLine(s: ScheduleView): string {
  const state = s.paused ? "paused" : "active";
  const last = s.lastOutcome ? `${s.lastOutcome}${s.lastRunId ? ` (${s.lastRunId})` : ""}` : "never fired";
  return `${s.id}  ${s.name}  [${s.graph}${s.version === null ? "" : ` v${s.version}`}]  ${describeSpec(s)}  ${state}  next: ${when(s.nextFireTimes[0])}  last: ${last}`;
}

function scheduleDetails(s: ScheduleView): string {
  const rows: [string, string][] = [
    ["id", s.id],
    ["name", s.name],
    ["graph", `${s.graph} (${s.version === null ? "latest version" : `v${s.version}`})`],
    ["when", describeSpec(s) + (s.jitterSeconds ? `, jitter ${s.jitterSeconds} s` : "")],
    ["overlap", s.overlap],
    ["state", s.paused ? `paused${s.pauseNote ? `: ${s.pauseNote}` : ""}` : "active"],
    ["task", s.task],
    ["context", JSON.stringify(s.context)],
    ["owner", s.owner.email ?? s.owner.id],
    ["failures", `${s.consecutiveFailures} in a row (pauses at ${s.failureLimit})`],
    ["next", s.nextFireTimes.length ? s.nextFireTimes.map(when).join(", ") : "—"],
    ["last fired", when(s.lastFiredAt)],
    ["last run", s.lastRunId ? `${s.lastRunId} (${s.lastOutcome ?? "?"})` : "—"],
    ...(s.lastError ? [["last error", s.lastError] as [string, string]] : []),
    ...(s.syncError ? [["not in Temporal yet", s.syncError] as [string, string]] : []),
  ];
  return rows.map(([label, value]) => `${label.padEnd(12)} ${value}`).join("\n");
}

/** One line per webhook endpoint: id, name, graph, state, path. */
export function webhookLine(w: WebhookView): string {
  return `${w.id}  ${w.name}  [${w.graph}${w.version === null ? "" : ` v${w.version}`}]  ${w.enabled ? "enabled" : "disabled"}  ${w.path}  rotated: ${when(w.rotatedAt)}`;
}

function readScheduleFile(file: string): ScheduleCreateInput {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    // The server checks the fields and answers 422 naming the wrong one.
    return JSON.parse(text) as ScheduleCreateInput;
  } catch (error) {
    throw new UsageError(`${file} is not JSON: ${(error as Error).message}`);
  }
}

function needId(args: ParsedArgs, what: string): string {
  const id = args.positional[2];
  if (!id) throw new UsageError(`${args.positional[0]} ${args.positional[1]} needs ${what}`);
  if (args.positional.length > 3) throw new UsageError(`unexpected ${args.positional.slice(3).join(" ")}`);
  return id;
}

async function schedulesCommand(client: ZapClient, args: ParsedArgs, print: (text: string) => void): Promise<void> {
  const sub = args.positional[1];
  const json = args.switches.has("--json");
  switch (sub) {
    case "list": {
      const graph = args.flags.get("--graph");
      const list = await client.listSchedules(graph ? { graph } : {});
      if (json) return print(JSON.stringify(list, null, 2));
      return print(list.length ? list.map(scheduleLine).join("\n") : `no schedules${graph ? ` of ${graph}` : ""}`);
    }
    case "show": {
      const schedule = await client.getSchedule(needId(args, "a schedule id (sch_…)"));
      return print(json ? JSON.stringify(schedule, null, 2) : scheduleDetails(schedule));
    }
    case "pause": {
      const schedule = await client.pauseSchedule(needId(args, "a schedule id (sch_…)"), args.flags.get("--note"));
      return print(`paused ${scheduleLine(schedule)}`);
    }
    case "resume": {
      const schedule = await client.resumeSchedule(needId(args, "a schedule id (sch_…)"));
      return print(`resumed ${scheduleLine(schedule)}`);
    }
    case "run-now": {
      const { triggered } = await client.triggerSchedule(needId(args, "a schedule id (sch_…)"));
      return print(`fired ${triggered} now: its run is listed at /runs?scheduleId=${triggered} (npm run agent -- schedules show ${triggered})`);
    }
    case "create": {
      const schedule = await client.createSchedule(readScheduleFile(needId(args, "a JSON file describing the schedule")));
      return print(json ? JSON.stringify(schedule, null, 2) : `created ${scheduleLine(schedule)}`);
    }
    default:
      throw new UsageError(sub ? `unknown schedules command "${sub}"` : "schedules needs a command");
  }
}

async function webhooksCommand(client: ZapClient, args: ParsedArgs, print: (text: string) => void): Promise<void> {
  const sub = args.positional[1];
  switch (sub) {
    case "list": {
      const graph = args.flags.get("--graph");
      const list = await client.listWebhooks(graph);
      if (args.switches.has("--json")) return print(JSON.stringify(list, null, 2));
      return print(list.length ? list.map(webhookLine).join("\n") : `no webhook endpoints${graph ? ` of ${graph}` : ""}`);
    }
    case "rotate-secret": {
      const { webhook, secret } = await client.rotateWebhookSecret(needId(args, "a webhook endpoint id (whk_…)"));
      // The secret goes to stdout alone on its line, so `| tail -1` captures it; it is not shown again.
      return print(`rotated the secret of ${webhook.id} (${webhook.name}); the old one no longer verifies. New secret, shown this once:\n${secret}`);
    }
    default:
      throw new UsageError(sub ? `unknown webhooks command "${sub}"` : "webhooks needs a command");
  }
}

export interface TriggerIo {
  /** ZAP_URL and ZAP_API_KEY are read from it. */
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Runs one trigger command; resolves with the process's exit code. */
export async function runTriggersCommand(argv: readonly string[], io: TriggerIo): Promise<number> {
  let args: ParsedArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    io.err(`✗ ${(error as Error).message}\n${TRIGGERS_USAGE}`);
    return 2;
  }
  if (args.positional[1] === "help") {
    io.out(TRIGGERS_USAGE);
    return 0;
  }
  const server = args.flags.get("--server") ?? io.env.ZAP_URL;
  if (!server) {
    io.err(`✗ ${args.positional[0]} commands go through a server's HTTP API: pass --server <url> or set ZAP_URL\n${TRIGGERS_USAGE}`);
    return 2;
  }
  const resolved = resolveKey({ server, envKey: io.env.ZAP_API_KEY, keyFile: args.flags.get("--api-key-file") });
  if ("error" in resolved) {
    io.err(`✗ ${resolved.error}`);
    return 2;
  }
  let client: ZapClient;
  try {
    client = new ZapClient({ baseUrl: server, apiKey: resolved.key });
  } catch (error) {
    io.err(`✗ ${(error as Error).message}`);
    return 2;
  }
  try {
    if (args.positional[0] === "schedules") await schedulesCommand(client, args, io.out);
    else await webhooksCommand(client, args, io.out);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`✗ ${error.message}\n${TRIGGERS_USAGE}`);
      return 2;
    }
    if (error instanceof ApiError) {
      const issues = error.issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
      io.err(`✗ ${error.message}${issues ? ` (${issues})` : ""}${error.status ? ` [HTTP ${error.status}]` : ""}`);
      return 1;
    }
    throw error;
  }
}
