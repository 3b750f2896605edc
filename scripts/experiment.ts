// `npm run experiment -- --dataset X [--dataset-version N] --graph G --versions 3,4
//    [--model M] [--scorer exact --scorer trajectory:unordered] [--threshold exact=0.8]
//    [--concurrency 4] [--approvals reject|approve] [--live-tool calculator]
//    [--server URL] [--api-key-file PATH] [--timeout-minutes 60]`
// Runs an experiment on a Zap Studio server through its HTTP API (the
// TypeScript client; default http://127.0.0.1:3000, or ZAP_URL) with an API key
// from ZAP_API_KEY or --api-key-file, waits for it, prints a table per target
// and exits 1 when a threshold is missed (saying which), 2 on bad arguments, 0
// otherwise — so a team can put it in CI.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { ZapClient, ApiError, type ExperimentDetail, type StartExperimentInput } from "../lib/client/zap-client";
import type { ScorerConfig } from "../lib/experiments/scoring/types";
import { scorerName } from "../lib/experiments/scoring/types";
import { formatSummary, missedThresholds, summarizeExperiment } from "../lib/experiments/report";

export const USAGE =
  "usage: npm run experiment -- --dataset <name> [--dataset-version N] --graph <graph> --versions 3,4 [--model <id>] [--scorer exact] [--threshold exact=0.8] [--concurrency 4] [--approvals reject|approve] [--live-tool <tool>] [--server <url>] [--api-key-file <path>] [--timeout-minutes 60]";

/** Scorers by their flag: `exact`, `contains`, `trajectory:unordered[/subset]`, `trajectory:strict[/exact]`, `routing`, `plan`, `recorded`, `judge:<rubric>`, `custom:<name>`, `latency:<ms>`, `tokens:<n>`, `cost:<usd>`. */
export function parseScorer(spec: string): ScorerConfig | null {
  const [kind = "", ...rest] = spec.split(":");
  const arg = rest.join(":");
  switch (kind) {
    case "exact":
    case "routing":
    case "plan":
    case "recorded":
      return arg ? null : { kind };
    case "contains":
      return arg ? { kind, text: arg } : { kind };
    case "trajectory": {
      const [order = "unordered", args] = arg.split("/");
      if (order !== "strict" && order !== "unordered") return null;
      const argumentsMode = args ?? (order === "strict" ? "exact" : "subset");
      if (argumentsMode !== "exact" && argumentsMode !== "subset" && argumentsMode !== "ignore") return null;
      return { kind, order, arguments: argumentsMode };
    }
    case "judge":
      return arg ? { kind, rubric: arg } : null;
    case "custom":
      return arg ? { kind, name: arg } : null;
    case "latency":
    case "tokens":
    case "cost": {
      const n = Number(arg);
      if (!arg || !Number.isFinite(n) || n <= 0) return null;
      return kind === "latency" ? { kind, maxMs: n } : kind === "tokens" ? { kind, max: n } : { kind, maxUsd: n };
    }
    default:
      return null;
  }
}

export type ParsedArgs = { ok: true; input: StartExperimentInput; server: string; apiKeyFile: string | null; timeoutMs: number } | { ok: false; error: string };

/** The command line as an experiment's start input; every problem named. */
export function parseCommandLine(argv: string[], env: Record<string, string | undefined>): ParsedArgs {
  if (argv.some((arg) => arg === "--api-key" || arg.startsWith("--api-key="))) {
    return { ok: false, error: "--api-key is not taken: a command line is readable by every user of the machine (ps) and stays in shell history; set ZAP_API_KEY or pass --api-key-file <path>" };
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        dataset: { type: "string" },
        "dataset-version": { type: "string" },
        graph: { type: "string" },
        versions: { type: "string" },
        model: { type: "string" },
        scorer: { type: "string", multiple: true },
        threshold: { type: "string", multiple: true },
        concurrency: { type: "string" },
        approvals: { type: "string" },
        "live-tool": { type: "string", multiple: true },
        name: { type: "string" },
        server: { type: "string" },
        "api-key-file": { type: "string" },
        "timeout-minutes": { type: "string" },
      },
    }));
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  if (!values.dataset) return { ok: false, error: "--dataset is required" };
  if (!values.graph) return { ok: false, error: "--graph is required" };
  const versions = (values.versions ?? "").split(",").map((v) => v.trim()).filter(Boolean);
  if (versions.length === 0) return { ok: false, error: "--versions is required, e.g. --versions 3,4" };
  const badVersion = versions.find((v) => !/^[1-9]\d*$/.test(v));
  if (badVersion) return { ok: false, error: `--versions: "${badVersion}" is not a version number` };
  const scorers: ScorerConfig[] = [];
  const byFlag = new Map<string, string>();
  for (const spec of values.scorer?.length ? values.scorer : ["exact"]) {
    const config = parseScorer(spec);
    if (!config) return { ok: false, error: `--scorer "${spec}" is not a scorer (exact, contains, trajectory:unordered, trajectory:strict, routing, plan, recorded, judge:<rubric>, custom:<name>, latency:<ms>, tokens:<n>, cost:<usd>)` };
    scorers.push(config);
    byFlag.set(spec, scorerName(config));
  }
  const thresholds: Record<string, number> = {};
  for (const spec of values.threshold ?? []) {
    const at = spec.lastIndexOf("=");
    const key = at > 0 ? spec.slice(0, at) : "";
    const value = Number(spec.slice(at + 1));
    if (!key || !Number.isFinite(value) || value < 0 || value > 1) return { ok: false, error: `--threshold "${spec}" is not <scorer>=<0..1>, e.g. exact=0.8` };
    // A threshold names its scorer as the --scorer flag did (trajectory:unordered) or by its full name (trajectory:unordered/subset).
    const parsed = parseScorer(key);
    const name = byFlag.get(key) ?? (parsed ? scorerName(parsed) : key);
    thresholds[name] = value;
  }
  const numberFlag = (flag: string, text: string | undefined): number | undefined | string => {
    if (text === undefined) return undefined;
    return /^[1-9]\d*$/.test(text) ? Number(text) : `${flag}: "${text}" is not a positive whole number`;
  };
  const datasetVersion = numberFlag("--dataset-version", values["dataset-version"]);
  const concurrency = numberFlag("--concurrency", values.concurrency);
  const timeoutMinutes = numberFlag("--timeout-minutes", values["timeout-minutes"]);
  for (const n of [datasetVersion, concurrency, timeoutMinutes]) if (typeof n === "string") return { ok: false, error: n };
  if (values.approvals !== undefined && values.approvals !== "reject" && values.approvals !== "approve") return { ok: false, error: `--approvals is reject or approve, not "${values.approvals}"` };
  const input: StartExperimentInput = {
    ...(values.name ? { name: values.name } : {}),
    dataset: values.dataset,
    ...(typeof datasetVersion === "number" ? { datasetVersion } : {}),
    targets: versions.map((v) => ({ graph: values.graph as string, version: Number(v), ...(values.model ? { model: values.model } : {}) })),
    scorers,
    ...(Object.keys(thresholds).length ? { thresholds } : {}),
    ...(typeof concurrency === "number" ? { concurrency } : {}),
    ...(values.approvals ? { approvals: values.approvals } : {}),
    ...(values["live-tool"]?.length ? { liveTools: values["live-tool"] } : {}),
  };
  return {
    ok: true,
    input,
    server: values.server ?? env.ZAP_URL ?? "http://127.0.0.1:3000",
    apiKeyFile: values["api-key-file"] ?? null,
    timeoutMs: (typeof timeoutMinutes === "number" ? timeoutMinutes : 60) * 60_000,
  };
}

export interface CliIo {
  env: Record<string, string | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
  readFile?: (path: string) => string;
  /** Another fetch for the client (tests answer with the route handlers in process). */
  fetch?: typeof fetch;
}

/** Runs the command; answers the exit code (0 met, 1 a threshold missed or the experiment did not complete, 2 bad arguments). */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(argv, io.env);
  if (!parsed.ok) {
    io.err(`✗ ${parsed.error}`);
    io.err(USAGE);
    return 2;
  }
  let apiKey = io.env.ZAP_API_KEY?.trim() ?? "";
  if (parsed.apiKeyFile) {
    try {
      apiKey = (io.readFile ?? ((p: string) => readFileSync(p, "utf8")))(parsed.apiKeyFile).trim();
    } catch {
      io.err(`✗ cannot read the API key file ${parsed.apiKeyFile}`);
      return 2;
    }
  }
  if (!apiKey) {
    io.err("✗ no API key: set ZAP_API_KEY or pass --api-key-file <path> (create one with npm run api-key)");
    return 2;
  }
  const zap = new ZapClient({ baseUrl: parsed.server, apiKey, ...(io.fetch ? { fetch: io.fetch } : {}) });
  let detail: ExperimentDetail;
  try {
    const { experimentId, total } = await zap.startExperiment(parsed.input);
    io.out(`experiment ${experimentId}: ${total} runs on ${parsed.server}/experiments/${experimentId}`);
    detail = await zap.waitForExperiment(experimentId, { timeoutMs: parsed.timeoutMs });
  } catch (error) {
    if (error instanceof ApiError) {
      io.err(`✗ ${error.message}${error.issues.length ? `: ${error.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}` : ""}`);
      // The server refused the input (4xx): an argument problem, as the usage line explains.
      return error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403 ? 2 : 1;
    }
    throw error;
  }
  const summary = summarizeExperiment(detail);
  io.out(formatSummary(summary));
  const missed = missedThresholds(summary);
  if (detail.experiment.status !== "completed") {
    io.err(`✗ the experiment is ${detail.experiment.status}`);
    return 1;
  }
  if (missed.length) {
    io.err(`✗ ${missed.length} threshold${missed.length === 1 ? "" : "s"} missed:`);
    for (const line of missed) io.err(`  ${line}`);
    return 1;
  }
  io.out("✓ every threshold met");
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main(process.argv.slice(2), { env: process.env, out: (l) => console.log(l), err: (l) => console.error(l) }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`✗ ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
