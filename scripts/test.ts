// `npm test`: sets up what the suites need, runs unit with typecheck beside it and lint
// beside them all at the lowest priority, integration (real Temporal + SQLite + PostgreSQL) and security (the attacks
// of the security model, each a test) with the dashboard's build beside them and, once the build is done and the
// replay soak has ended, first run (`npm start` in a fresh clone, with crashes and Ctrl-C),
// then e2e (real Chromium, two lanes side by side, each with a stack of its
// own, their files dealt by the last run's durations), then scale-out alone (two web servers and two workers on one
// PostgreSQL database, serving that build), and ends with one summary line:
// `tests: N passed, N failed[, N skipped]`.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { bin, PROJECT_ROOT, run } from "./lib/run";
import { provisionTemporalCli } from "./lib/temporal-cli";
import { adoptWorkflowBundle, currentWorkflowBundle, workflowBundleFingerprint } from "./lib/workflow-bundle";
import { generatePrismaClients } from "./db/generate";
import { freePort } from "./test-support/ports";
import { e2eChromium, FULL_CHROMIUM, HEADLESS_SHELL } from "./test-support/chromium";
import { e2eShuffleSeed, shuffleArgs } from "./test-support/e2e-order";
import { pageAtFailureFile } from "./test-support/page-at-failure";
import { dealToLanes, e2eSpecFiles, exactFileFilters, loadE2eFileSeconds, saveE2eFileSeconds } from "./test-support/e2e-lanes";
import { provisionPostgres, type ProvisionedPostgres } from "./test-support/embedded-postgres";
import { provisionLocalModel, zapCacheDir } from "./lib/local-model";
import { restoreTypecheckState, savedTypecheckState, saveTypecheckState, TYPECHECK_STATE } from "./test-support/typecheck-state";
import { provisionPhoenix } from "./test-support/phoenix";
import { lintKey, lintPassedBefore, recordLintPassed } from "./test-support/lint-cache";
import { restoreVitestResults, saveVitestResults } from "./test-support/vitest-results";
import { machineSpeedLine, measureMachineSpeed, REFERENCE_MS, type MachineSpeed } from "./test-support/machine-speed";
import { WAIT_SCALE_ENV, waitScaleFor } from "./test-support/wait-scale";
import { freshPostgres, postgresReachable, postgresRequired, redactedPostgresUrl } from "./test-support/databases";
import {
  belowFloor,
  criticalPath,
  inCi,
  loadSkipAllowList,
  loadTestFloors,
  playwrightFileTimes,
  playwrightSkips,
  slowest,
  testName,
  unallowedSkips,
  unhandledErrors,
  vitestFileTimes,
  vitestReportPart,
  vitestSkips,
  type FileTime,
  type PlaywrightReport,
  type PlaywrightSuite,
  type TestRef,
  type VitestReport,
} from "./test-support/test-report";

interface SuiteResult {
  name: string;
  passed: number;
  failed: number;
  skipped: number;
  seconds: number;
  note?: string;
  /** The failed tests by name with the first line of their error, printed again under the summary (CI shows a run's tail). */
  failures?: string[];
  /** Every skipped test, named in the summary. */
  skips?: TestRef[];
  /** Seconds per test file, for the slowest-files list. */
  fileTimes?: FileTime[];
  /** Which database(s) the suite's writes ran on, printed in the summary. */
  databases?: string;
  /** Seconds into the run when it ended (set by record). */
  endedAt?: number;
}

/**
 * The default reporter's line for the replay soak's end, or for a file that ended in one of integration's parallel
 * projects: "✓  integration-serial  worker/engine-tests/replay-soak…", "✓  integration  worker/…" (or ×, ↓; the
 * project name padded by spaces). First run waits for one of them (and the dashboard's build).
 */
const SOAK_OR_PARALLEL_FILE_ENDED = /^\s*[✓×↓]\s+(?:integration-serial\s+\S*replay-soak\.int\.test\.ts|(?:integration|integration-isolated|security|security-isolated)\s+\S+\.test\.ts)/m;

/** The integration files on a real model (llama-server) and a real OTLP collector (Arize Phoenix). */
const REAL_COMPONENT_TESTS = /\/(?:llama-demo-graphs|llama-token-stream|phoenix-export)\.int\.test\.ts$/;

/** Lines of a failure's message the summary repeats under its first: CI keeps only the summary, so it must carry the evidence. */
const FAILURE_DETAIL_LINES = 8;

/**
 * A failure: where, which test, the first line of why, and under it the next few lines of the message that are not
 * stack frames or code excerpts (expected/received, a helper's diagnostics), colour codes stripped.
 */
function failureLine(file: string, title: string, message: string | undefined): string {
  const lines = (message ?? "").replace(/\u001b\[[0-9;]*m/g, "").split("\n").map((line) => line.trim()).filter(Boolean);
  const [first = "", ...rest] = lines;
  const detail = rest.filter((line) => !/^at\s/.test(line) && !/^(>?\s*\d+\s*\||\|)/.test(line)).slice(0, FAILURE_DETAIL_LINES);
  const head = `${path.relative(PROJECT_ROOT, file) || file} › ${title}${first ? ` — ${first.slice(0, 240)}` : ""}`;
  return [head, ...detail.map((line) => `        ${line.slice(0, 400)}`)].join("\n");
}

const results: SuiteResult[] = [];
const RUN_STARTED = performance.now();

/** Keeps a suite's result with when it ended (seconds into the run): the summary draws the run's timeline from it. */
function record(result: SuiteResult): void {
  results.push({ ...result, endedAt: (performance.now() - RUN_STARTED) / 1000 });
}


const reportDir = mkdtempSync(path.join(os.tmpdir(), "zap-test-reports-"));


/**
 * Runs a command with its output streamed, resolving to its exit code. With `held`, the output is kept and
 * handed to `held` in one piece when the command ends (a suite running beside another, whose lines would
 * otherwise interleave with it).
 */
function stream(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  held?: (output: Buffer) => void,
  seen?: (output: string) => void,
  onChunk?: (chunk: string) => void,
): Promise<number> {
  return new Promise((resolve) => {
    // With `seen`, the output is piped (and passed through as it comes) so the caller can read it afterwards.
    const piped = Boolean(held || seen || onChunk);
    const child = spawn(command, args, { cwd: PROJECT_ROOT, stdio: piped ? ["ignore", "pipe", "pipe"] : "inherit", env: { ...process.env, ...env } });
    const output: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => {
      output.push(chunk);
      if (!held) process.stdout.write(chunk);
      onChunk?.(chunk.toString("utf8"));
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output.push(chunk);
      if (!held) process.stderr.write(chunk);
    });
    const done = (code: number) => {
      const all = Buffer.concat(output);
      held?.(all);
      seen?.(all.toString("utf8"));
      resolve(code);
    };
    child.on("error", () => done(127));
    child.on("exit", (code) => done(code ?? 1));
  });
}

function banner(text: string): void {
  console.log(`\n━━ ${text} ${"━".repeat(Math.max(3, 70 - text.length))}`);
}

/** A check that passes or fails as a whole (typecheck, lint). */
async function check(name: string, command: string, args: string[], beside?: string): Promise<void> {
  // Beside other suites: its output (a linter's findings) is printed in one piece when it ends, under its banner.
  if (beside) console.log(`▸ ${name} runs beside ${beside}; its output follows when it ends`);
  else banner(name);
  const started = performance.now();
  const printHeld = (held: Buffer) => {
    banner(`${name} (ran beside ${beside})`);
    process.stdout.write(held);
  };
  const code = await stream(command, args, {}, beside ? printHeld : undefined);
  record({ name, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0, seconds: (performance.now() - started) / 1000 });
}

function vitestFailures(report: VitestReport): string[] {
  return (report.testResults ?? []).flatMap((file) => {
    const failed = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    if (failed.length) return failed.map((test) => failureLine(file.name, test.fullName, test.failureMessages?.[0]));
    // A file that failed outside any test (an import or a hook).
    return file.message ? [failureLine(file.name, "(file)", file.message)] : [];
  });
}

/** A suite reported out of a shared vitest run: the files `files` matches. */
interface SuitePart {
  name: string;
  files: RegExp;
  databases?: string;
}

/**
 * Vitest projects of vitest.config.ts run as one suite, or (with `config`) a suite with its own config file.
 * With `parts`, one run (one Temporal dev server, bundle and pool) is reported as several suites: each part
 * takes the files it matches, `name` the rest; each shows the shared run's time.
 */
async function vitestSuite(
  name: string,
  projects: string[],
  options: { env?: Record<string, string>; config?: string; databases?: string; parts?: SuitePart[]; beside?: string; onChunk?: (chunk: string) => void } = {},
): Promise<void> {
  const { env = {}, config, databases, parts = [], beside, onChunk } = options;
  const title = [name, ...parts.map((p) => p.name)].join(" + ");
  // Beside another suite: its output is printed in one piece when it ends, under its own banner.
  if (beside) console.log(`▸ ${title} runs beside ${beside}; its output follows when it ends`);
  else banner(title);
  const started = performance.now();
  const output = path.join(reportDir, `${projects.join("+")}.json`);
  const selection = config ? ["--config", config] : projects.flatMap((project) => ["--project", project]);
  const printHeld = (held: Buffer) => {
    banner(`${title} (ran beside ${beside})`);
    process.stdout.write(held);
  };
  const args = ["run", ...selection, "--reporter=default", "--reporter=json", `--outputFile.json=${output}`];
  let printed = "";
  const code = await stream(bin("vitest"), args, env, beside ? printHeld : undefined, (output) => (printed = output), onChunk);
  const seconds = (performance.now() - started) / 1000;
  if (!existsSync(output)) {
    record({ name, passed: 0, failed: 1, skipped: 0, seconds, databases, note: `vitest exited with ${code} before reporting` });
    return;
  }
  const report = JSON.parse(readFileSync(output, "utf8")) as VitestReport;
  const suites = [
    { name, databases, report: vitestReportPart(report, (file) => !parts.some((p) => p.files.test(file))) },
    ...parts.map((p) => ({ name: p.name, databases: p.databases, report: vitestReportPart(report, (file) => p.files.test(file)) })),
  ];
  // A non-zero exit with no failed test (e.g. an error in a global hook) still counts as a failure, on the first suite.
  const unexplained = code !== 0 && suites.every((s) => s.report.numFailedTests === 0) ? 1 : 0;
  suites.forEach((suite, i) =>
    record({
      name: suite.name,
      passed: suite.report.numPassedTests,
      failed: suite.report.numFailedTests + (i === 0 ? unexplained : 0),
      skipped: suite.report.numPendingTests + suite.report.numTodoTests,
      seconds,
      failures: [...vitestFailures(suite.report), ...(i === 0 && unexplained ? unhandledErrors(printed) : [])],
      skips: vitestSkips(suite.report),
      fileTimes: vitestFileTimes(suite.report),
      databases: suite.databases,
    }),
  );
}

function playwrightFailures(suites: PlaywrightSuite[] = [], titles: string[] = []): string[] {
  return suites.flatMap((suite) => {
    const path = suite.file === suite.title ? titles : [...titles, suite.title];
    const here = (suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === "unexpected" || test.status === "flaky")
        .map((test) => {
          const failed = test.results.find((r) => r.error);
          const line = failureLine(spec.file, [...path, spec.title].join(" › ") + (test.status === "flaky" ? " (flaky)" : ""), failed?.error?.message);
          const page = pageAtFailureFile(failed?.attachments?.find((a) => a.name === "error-context")?.path);
          return page.length ? [line, "        the page at the failure:", ...page.map((l) => `          ${l}`)].join("\n") : line;
        }),
    );
    return [...here, ...playwrightFailures(suite.suites, path)];
  });
}

/** One Playwright process: its own `npm start` stack (data folder, ports, sign-ins, artifacts), a shard of the files. */
interface E2eProcess {
  /** Names its folders and, when held, its banner. */
  label: string;
  /** Playwright's `--shard`, e.g. "1/2": files are dealt to shards in alphabetical order, then each runs its files in E2E_SHUFFLE_SEED's order. */
  shard?: string;
  /** A database other than the stack's own SQLite file (PostgreSQL). */
  databaseUrl?: string;
  /** Only these files (default: all). */
  files?: string[];
  /** These files left out (another process runs them). */
  ignore?: string[];
  port: number;
  /** Its output printed in one piece when it ends (it runs beside another whose output streams). */
  held?: boolean;
}

interface E2eOutcome {
  code: number;
  seconds: number;
  report?: PlaywrightReport;
}

async function e2eProcess(run: E2eProcess): Promise<E2eOutcome> {
  const started = performance.now();
  const output = path.join(reportDir, `e2e-${run.label}.json`);
  const dataDir = path.join(PROJECT_ROOT, ".data", `e2e-${run.label}`);
  rmSync(dataDir, { recursive: true, force: true });
  const env = {
    E2E_REPORTER_JSON: output,
    E2E_DATA_DIR: dataDir,
    E2E_AUTH_DIR: path.join(dataDir, "auth"),
    E2E_OUTPUT_DIR: path.join(PROJECT_ROOT, "test-results", run.label),
    E2E_PORT: String(run.port),
    E2E_TEMPORAL_PORT: String(await freePort()),
    E2E_TEMPORAL_UI_PORT: String(await freePort()),
    E2E_SLACK_PORT: String(await freePort()),
    ...(run.databaseUrl ? { E2E_DATABASE_URL: run.databaseUrl } : {}),
    ...(run.ignore ? { E2E_IGNORE_FILES: run.ignore.join(",") } : {}),
    // No trace unless asked (playwright.config.ts): recording one cost a quarter of Chromium's CPU.
    E2E_TRACE: process.env.E2E_TRACE ?? "off",
  };
  const printHeld = (held: Buffer) => {
    banner(`e2e ${run.label} (ran beside the other e2e processes)`);
    process.stdout.write(held);
  };
  const code = await stream(bin("playwright"), ["test", ...shuffleArgs(E2E_SHUFFLE_SEED), ...(run.shard ? [`--shard=${run.shard}`] : []), ...(run.files ?? [])], env, run.held ? printHeld : undefined);
  const seconds = (performance.now() - started) / 1000;
  return { code, seconds, report: existsSync(output) ? (JSON.parse(readFileSync(output, "utf8")) as PlaywrightReport) : undefined };
}

/** Records Playwright processes that together ran one suite (the shards of the e2e files) as that suite. */
function recordE2e(name: string, outcomes: E2eOutcome[], seconds: number, databases: string): void {
  const missing = outcomes.filter((o) => !o.report);
  const reports = outcomes.flatMap((o) => (o.report ? [o.report] : []));
  // A non-zero exit with no failed test (a global setup or web server that failed) still counts as a failure.
  const unexplained = outcomes.filter((o) => o.report && o.code !== 0 && o.report.stats.unexpected === 0).length;
  record({
    name,
    passed: reports.reduce((n, r) => n + r.stats.expected, 0),
    failed: reports.reduce((n, r) => n + r.stats.unexpected + r.stats.flaky, 0) + unexplained + missing.length,
    skipped: reports.reduce((n, r) => n + r.stats.skipped, 0),
    seconds,
    // The seed beside each failure: a failure that depends on the order repeats with E2E_SHUFFLE_SEED.
    failures: reports.flatMap((r) => playwrightFailures(r.suites)).map((failure) => failure.replace(/^[^\n]*/, (head) => `${head} (shuffle seed ${E2E_SHUFFLE_SEED})`)),
    skips: reports.flatMap((r) => playwrightSkips(r)),
    fileTimes: reports.flatMap((r) => playwrightFileTimes(r)),
    databases,
    ...(missing.length ? { note: `playwright exited with ${missing.map((o) => o.code).join(", ")} before reporting` } : {}),
  });
}

/** Resolves when the stack at `port` answers its health check, or when `gaveUp` settles (that process ended first). */
async function healthy(port: number, gaveUp: Promise<unknown>): Promise<void> {
  let over = false;
  void gaveUp.finally(() => (over = true));
  while (!over) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** About how long the second SQLite lane waits for the first one's stack to answer (its `npm start` under load). */
const SECOND_LANE_STARTS_AFTER_SECONDS = 20;

/** The order of this run's e2e files (issue 38 §3): one seed for every Playwright process, printed in the e2e banner. */
const E2E_SHUFFLE_SEED = e2eShuffleSeed();

// The e2e files that drive every write path of the browser — designer save, run start, approvals (a run's and the
// inbox's), plan edit, datasets, experiments, monitors, API keys, webhooks, schedules, spend limits, guardrails,
// online evaluation, version labels — run on PostgreSQL (issue 38 §2), with a
// stack of its own on a database made for this run (a run starts in run-approvals and experiments).

/**
 * Write-path files that run on PostgreSQL only: the same write path also runs in the browser on SQLite in the
 * files named beside each, so a second SQLite pass of these proved nothing more for ~70 CPU-s (2026-11-30).
 */
const POSTGRES_ONLY_E2E_FILES = [
  "e2e/designer.spec.ts", // designer save on SQLite: designer-run (Save and run), orchestration-designer (Save)
  "e2e/inbox.spec.ts", // inbox decisions on SQLite: inbox-keyboard, inbox-identity, approval-link, budget-ask
  "e2e/datasets.spec.ts", // dataset items on SQLite: improve-loop (Add to dataset)
];

/** The PostgreSQL lane's files: those above, and write paths whose only browser test is their own file (run on both databases). */
const POSTGRES_E2E_FILES = [
  ...POSTGRES_ONLY_E2E_FILES,
  "e2e/run-approvals.spec.ts",
  "e2e/plan-edit.spec.ts",
  "e2e/experiments.spec.ts",
  "e2e/monitors.spec.ts",
  "e2e/api-keys.spec.ts",
  "e2e/webhooks.spec.ts",
  // The write paths of unattended runs and of quality in production (issues 39 and 40): schedules, spend limits,
  // Slack links, guardrails (designer save and their verdicts on runs), online evaluators and backfills, label moves
  // and splits. ~130 s more for this lane, which ended 280 s before the SQLite lanes (2026-12-01).
  "e2e/schedules.spec.ts",
  "e2e/spend-limits.spec.ts",
  "e2e/slack-links.spec.ts",
  "e2e/guardrails-designer.spec.ts",
  "e2e/guardrails-runs.spec.ts",
  "e2e/online-evaluation.spec.ts",
  "e2e/version-labels.spec.ts",
];

/** The write-path files on a fresh PostgreSQL database, recorded as their own suite. */
async function postgresE2eSuite(pg: boolean): Promise<void> {
  const started = performance.now();
  if (!pg) {
    record({ name: "e2e on PostgreSQL", passed: 0, failed: 1, skipped: 0, seconds: 0, databases: "PostgreSQL", note: "PostgreSQL unreachable: not run" });
    return;
  }
  const database = await freshPostgres();
  try {
    const outcome = await e2eProcess({ label: "postgresql", port: await freePort(), databaseUrl: database.url, files: POSTGRES_E2E_FILES, held: true });
    recordE2e("e2e on PostgreSQL", [outcome], (performance.now() - started) / 1000, "PostgreSQL");
  } finally {
    await database.drop().catch(() => undefined);
  }
}

/**
 * The e2e files in two shards, each a Playwright process with a stack of its own (SQLite), side by side: one
 * browser driving one server kept about half of the two cores busy (npm test, 2026-11-29). The second starts
 * once the first stack answers, so the two `npm start`s never write the shared workflow bundle or Prisma
 * clients at once; from then on each has its own database, Temporal server, worker and web server. `beside`
 * runs along (first run, when it outlasted integration); the PostgreSQL files start beside the lanes once both answer, or, with `beside`, when it or a lane ends.
 */
async function e2eSuites(pg: boolean, beside?: Promise<void>): Promise<void> {
  banner(`e2e (Playwright + Chromium: two lanes on SQLite, then the write paths on PostgreSQL; files in a shuffled order, seed ${E2E_SHUFFLE_SEED}: E2E_SHUFFLE_SEED=${E2E_SHUFFLE_SEED} npm test repeats it)`);
  const started = performance.now();
  const chromium = e2eChromium();
  if (!existsSync(chromium)) {
    record({ name: "e2e", passed: 0, failed: 1, skipped: 0, seconds: 0, note: `Chromium not found at ${chromium}` });
    await beside;
    return;
  }
  const ignore = pg ? POSTGRES_ONLY_E2E_FILES : undefined;
  // Dealt by the last run's durations when this machine has them (scripts/test-support/e2e-lanes.ts), else Playwright's shards.
  const dealt = dealToLanes(
    e2eSpecFiles().filter((file) => !ignore?.includes(file)),
    loadE2eFileSeconds(zapCacheDir()),
    [0, SECOND_LANE_STARTS_AFTER_SECONDS],
  );
  const lane = (i: number): Pick<E2eProcess, "shard" | "files"> => (dealt ? { files: exactFileFilters(dealt.lanes[i] ?? []) } : { shard: `${i + 1}/2` });
  console.log(
    dealt
      ? `  lanes dealt by the last run's file durations (${path.join(zapCacheDir(), "e2e-file-seconds.json")}):\n${dealt.lanes.map((files, i) => `  sqlite-${i + 1}, ${files.length} files, ~${dealt.expectedSeconds[i]} s: ${files.map((file) => path.basename(file, ".spec.ts")).join(" ")}`).join("\n")}`
      : "  no file durations recorded on this machine yet: Playwright's two shards",
  );
  const first: E2eProcess = { label: "sqlite-1", ...lane(0), port: await freePort(), ignore };
  const second: E2eProcess = { label: "sqlite-2", ...lane(1), port: await freePort(), held: true, ignore };
  const firstDone = e2eProcess(first);
  const secondDone = healthy(first.port, firstDone).then(() => e2eProcess(second));
  const sqlite = Promise.all([firstDone, secondDone]).then((outcomes) => {
    recordE2e("e2e", outcomes, (performance.now() - started) / 1000, "SQLite");
    saveE2eFileSeconds(zapCacheDir(), outcomes.flatMap((o) => (o.report ? playwrightFileTimes(o.report) : [])));
  });
  // Beside a suite that runs along (first run, when it outlasted integration): when that or a lane ends (started with
  // the shards as well, the five lanes slowed each other and the run took 38 s more, 1,193 s against 1,155 s, npm test
  // 2026-11-29). Alone, the two SQLite lanes left a quarter of two cores idle (they wait on runs and pages), and the
  // PostgreSQL lane, started when the first ended, ran 85 s behind them: it starts once the second lane's stack answers
  // (its `npm start` then writes nothing the others are writing).
  const postgres = (beside ? Promise.race([firstDone, secondDone, beside]) : healthy(second.port, secondDone)).then(() => postgresE2eSuite(pg));
  await Promise.all([sqlite, postgres, beside]);
}

/**
 * Installs Debian's chromium-headless-shell when neither CHROMIUM_PATH nor the shell is there and we may (root):
 * e2e drives it for 40 % of the full browser's CPU (scripts/test-support/chromium.ts). Debian's chromium is the
 * fallback when the package cannot be installed (no network to the mirror); with neither, e2e fails naming the path.
 */
async function ensureChromium(): Promise<string | null> {
  if (process.env.CHROMIUM_PATH || existsSync(HEADLESS_SHELL)) return null;
  if (process.getuid?.() !== 0) {
    return existsSync(FULL_CHROMIUM) ? null : `✗ Chromium is missing at ${FULL_CHROMIUM}: install it (e.g. \`sudo apt-get install chromium-headless-shell\`) or set CHROMIUM_PATH. e2e will fail.`;
  }
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const install = () => run("apt-get", ["install", "-y", "--no-install-recommends", "chromium-headless-shell"], { env });
  // The package lists may be current already (an image with chromium installed): only a failed install updates them.
  let result = await install();
  if (result.code !== 0) {
    await run("apt-get", ["update", "-qq"], { env });
    result = await install();
  }
  if (result.code === 0) return "✓ Debian's chromium-headless-shell installed (apt-get)";
  return `✗ apt-get install chromium-headless-shell failed${existsSync(FULL_CHROMIUM) ? `; e2e drives ${FULL_CHROMIUM}` : ""}:\n${result.stderr.slice(-2000)}`;
}

/**
 * The dashboard's production build, started beside the integration suite at low priority (nice 10): integration
 * mostly waits on Temporal, child processes and databases, so the build takes the idle CPU, and e2e's
 * `npm start` then finds `.next` current instead of spending a minute of the suite on it. A failed build is
 * only reported here: e2e's `npm start` builds again and fails with the reason.
 */
function prebuildDashboard(): Promise<string> {
  return new Promise((resolve) => {
    const started = performance.now();
    // Types were checked by this run's typecheck suite (it passed, or the run fails anyway): the build skips its own check.
    const child = spawn("nice", ["-n", "10", bin("tsx"), "scripts/build-dashboard.ts"], { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ZAP_BUILD_TYPES_CHECKED: "1" } });
    let output = "";
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const seconds = () => ((performance.now() - started) / 1000).toFixed(0);
    child.on("error", (error) => resolve(`✗ dashboard build beside integration could not start: ${error.message}`));
    child.on("exit", (code) =>
      resolve(code === 0 ? `✓ ${output.trim().split("\n").at(-1) ?? "dashboard build"} (beside integration, ${seconds()} s)` : `✗ dashboard build beside integration failed (${code}); e2e's npm start retries it:\n${output.trim()}`),
    );
  });
}

/** Prints every suite, every failure and skip, the slowest files; returns the number of failures the checks add (skips in CI, floors). */
function summarise(pg: boolean, speed: MachineSpeed): number {
  banner("summary");
  // First: the run's times below mean little without how fast the machine was (the same suites ran twice as long on a slower one).
  console.log(machineSpeedLine(speed, os.loadavg()[0] ?? 0));
  const ci = inCi();
  const allowed = loadSkipAllowList();
  const floors = loadTestFloors();
  let extraFailures = 0;
  for (const r of results) {
    const skipped = r.skipped ? `, ${r.skipped} skipped` : "";
    const floorNote = r.note ? null : belowFloor(r.name, r.passed + r.failed + r.skipped, floors);
    if (floorNote) extraFailures += 1;
    const failed = r.failed || floorNote;
    const where = r.databases ? ` [${r.databases}]` : "";
    console.log(`${failed ? "✗" : "✓"} ${r.name.padEnd(12)} ${r.passed} passed, ${r.failed} failed${skipped} (${r.seconds.toFixed(1)} s)${where}${r.note ? ` — ${r.note}` : ""}`);
    if (floorNote) console.log(`    ✗ ${floorNote}`);
    for (const failure of (r.failures ?? []).slice(0, 20)) console.log(`    ✗ ${failure}`);
    const unallowed = unallowedSkips(r.skips ?? [], allowed);
    for (const skip of r.skips ?? []) {
      const refused = ci && unallowed.includes(skip);
      console.log(`    ${refused ? "✗ skipped in CI, not on the allow-list:" : "∅ skipped:"} ${testName(skip)}`);
    }
    if (ci) extraFailures += unallowed.length;
  }
  const skippedCount = results.reduce((n, r) => n + r.skipped, 0);
  if (skippedCount && !ci) console.log(`  ${skippedCount} test(s) skipped${pg ? "" : " — PostgreSQL is not reachable; see scripts/test-support/databases.ts for how to get one"}; in CI (CI=true) a skip off scripts/test-support/skip-allowlist.json fails the run`);
  const path = criticalPath(results.flatMap((r) => (r.endedAt === undefined ? [] : [{ name: r.name, seconds: r.seconds, endedAt: r.endedAt }])));
  if (path.length) {
    const setup = path[0]?.from ?? 0;
    console.log(`critical path: ${[`setup ${setup.toFixed(0)} s`, ...path.map((p) => `${p.name} ${(p.to - p.from).toFixed(0)} s`)].join(" → ")} = ${(path.at(-1)?.to ?? 0).toFixed(0)} s`);
  }
  const times = results.flatMap((r) => r.fileTimes ?? []);
  if (times.length) {
    // Twenty-five: CI's log is all a later session has to find where the time went, and ten named only the heaviest few.
    console.log("slowest files:");
    for (const t of slowest(times, 25)) console.log(`  ${t.seconds.toFixed(1).padStart(6)} s  ${t.file}`);
  }
  return extraFailures;
}

/**
 * Lint beside the suites at the lowest priority, unless this very tree passed it on this machine before
 * (scripts/test-support/lint-cache.ts): then its recorded pass stands, said in the summary. A clean pass is recorded
 * only when the tree did not change while ESLint read it.
 */
async function lintUnlessPassed(): Promise<void> {
  const key = lintKey(PROJECT_ROOT);
  const passedAt = lintPassedBefore(zapCacheDir(), key);
  if (passedAt) {
    console.log(`▸ lint: this tree passed it on this machine at ${passedAt.toISOString()} (${path.join(zapCacheDir(), "lint-passed", key.slice(0, 12))}…); not linted again`);
    record({ name: "lint", passed: 1, failed: 0, skipped: 0, seconds: 0, note: `identical tree passed at ${passedAt.toISOString()}` });
    return;
  }
  await check("lint", "nice", ["-n", "19", bin("eslint"), "--max-warnings=0", "."], "the suites");
  if (results.find((r) => r.name === "lint")?.failed === 0 && lintKey(PROJECT_ROOT) === key) recordLintPassed(zapCacheDir(), key);
}

/** Runs a provisioning step, and says in one line what it gave and in how long, or why it could not. */
async function timed(name: string, provision: () => Promise<string>): Promise<string> {
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  return provision().then(
    (what) => `✓ ${name}: ${what} (${seconds()} s)`,
    (error: unknown) => `✗ ${name} could not be provisioned (${seconds()} s): ${error instanceof Error ? error.message : String(error)} — its tests fail below`,
  );
}

/** The PostgreSQL the suites use; an embedded one is stopped (and its data deleted) before the process exits, also on failure. */
let postgres: ProvisionedPostgres | null = null;

async function main(): Promise<void> {
  const started = performance.now();
  banner("setup");
  // Before anything else starts (about a second): the summary says how fast this machine is.
  const speed = measureMachineSpeed();
  // Every suite's hang detectors wait that much longer on a slow machine (scripts/test-support/wait-scale.ts).
  process.env[WAIT_SCALE_ENV] = String(waitScaleFor(speed.ms));
  // Vite warns, once per config it loads (16 times a run), that extensionless imports in a config will not load
  // under a loader it may make the default one day; the configs import TypeScript as the whole codebase does.
  process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING ??= "true";
  console.log(`✓ machine speed: workload ${speed.ms} ms (reference ${REFERENCE_MS} ms); hang detectors wait ×${process.env[WAIT_SCALE_ENV]}`);
  process.env.TEMPORAL_CLI = await provisionTemporalCli();
  console.log(`✓ Temporal CLI: ${process.env.TEMPORAL_CLI}`);
  // The real components of the integration run, into the cache outside the checkout (seconds when cached, minutes
  // the first time: Phoenix's venv), in the background while typecheck, lint and unit run. Their tests provision
  // them too (the same cache), so one that cannot be had fails those tests, naming it; here it is named early.
  const realComponents = Promise.all([
    timed("local model (llama-server + SmolLM2 GGUF)", () => provisionLocalModel().then((m) => `${m.modelName}, ${m.server}`)),
    // Handed to the integration run's children, which then skip their own look-up.
    timed("Arize Phoenix", () => provisionPhoenix({ log: () => undefined }).then((command) => (process.env.ZAP_PHOENIX = command))),
  ]);
  await generatePrismaClients();
  console.log("✓ Prisma clients generated");
  // In the background: an install downloads and unpacks ~100 MB beside typecheck; e2e waits for it.
  const chromiumReady = ensureChromium();
  // The server at TEST_DATABASE_URL (or the default) when it answers, else an embedded one on a free port. One that
  // cannot be had fails the run where PostgreSQL is required (CI, or TEST_DATABASE_URL set), else its tests are skipped.
  const required = postgresRequired();
  const provisioning = performance.now();
  postgres = await provisionPostgres().catch((error: unknown) => {
    if (required) throw error;
    console.log(`! ${error instanceof Error ? error.message : String(error)}`);
    return null;
  });
  // Every suite is a child of this process and reads TEST_DATABASE_URL (databases.ts), so all of them use this server.
  if (postgres?.source === "embedded") {
    process.env.TEST_DATABASE_URL = postgres.url;
    console.log(`✓ PostgreSQL: none answered, embedded one started (${((performance.now() - provisioning) / 1000).toFixed(1)} s)`);
  }
  // Throws, naming the server and the error, when PostgreSQL is required (CI, or TEST_DATABASE_URL set) and down.
  const pg = await postgresReachable();
  if (pg) console.log(`✓ PostgreSQL reachable at ${redactedPostgresUrl()}`);
  else console.log(`! PostgreSQL not reachable at ${redactedPostgresUrl()}: its tests will be skipped, each named in the summary (required: ${postgresRequired() ? "yes" : "no, not CI"})`);
  const both = pg ? "SQLite + PostgreSQL" : "SQLite only: PostgreSQL unreachable";

  // Lint (one single-threaded process, ~100 CPU-s with typed rules) runs beside everything at the lowest priority
  // (nice 19): beside typecheck it has the second core, later it takes what the suites leave idle. Gating
  // integration on it kept one core busy linting for ~50 s after unit ended (147 s against typecheck's 72 s and
  // unit's 25 s, npm test 2026-11-30). Its result counts like any suite's; the summary waits for it.
  const lint = lintUnlessPassed();
  // Incremental from the state the last passing run saved (scripts/test-support/typecheck-state.ts): a clone of a
  // commit checked before re-checks what differs (~10 CPU-s against ~35 for all of it, 2026-11-30).
  const fromState = restoreTypecheckState(PROJECT_ROOT, zapCacheDir());
  // Beside unit (and integration's start when it outlasts unit): tsc is one thread, and waiting for it before unit
  // kept ~40 s of it alone on the critical path (npm test 2026-12-01: typecheck 39 s, then unit 23 s). Nothing run
  // here depends on its result: the build beside integration skips its own check because a failed typecheck fails
  // the run anyway.
  const typecheck = check("typecheck", bin("tsc"), ["--noEmit", "-p", "tsconfig.json", "--incremental", "--tsBuildInfoFile", TYPECHECK_STATE], "unit").then(() => {
    if (results.find((r) => r.name === "typecheck")?.failed === 0) saveTypecheckState(PROJECT_ROOT, zapCacheDir());
    if (fromState) console.log(`  (typecheck was incremental, from a previous run's state: delete ${TYPECHECK_STATE} and ${savedTypecheckState(zapCacheDir())} to check everything)`);
  });
  // Vitest orders each project's files longest first by what the last run recorded (scripts/test-support/vitest-results.ts).
  if (restoreVitestResults(PROJECT_ROOT, zapCacheDir())) console.log("  (vitest orders files by the durations the last run on this machine recorded)");
  await vitestSuite("unit", ["unit", "unit-isolated"]);
  // The load tests alone, then two files at a time (vitest.config.ts). Integration and security in one run: one Temporal dev server, workflow bundle and seeded template, and one
  // pool of two workers that security files fill while integration's last ones finish (vitest.config.ts).
  for (const line of await realComponents) console.log(line);
  const prebuild = prebuildDashboard();
  // Integration's global setup hands over the workflow bundle it makes (scripts/test-support/temporal-global-setup.ts);
  // the fingerprint of the inputs is taken before it is made.
  const workflowPrint = workflowBundleFingerprint();
  const handedBundle = path.join(reportDir, "workflow-bundle.js");
  // The clone is of HEAD: when the checkout has no change beside it and this run's typecheck passed, the clone's
  // `next build` skips its second check of the same files (~80 CPU-s), as the prebuild does.
  const typesChecked = typecheck.then(
    async () => results.find((r) => r.name === "typecheck")?.failed === 0 && (await run("git", ["status", "--porcelain"])).stdout.trim() === "" && !process.env.FIRST_RUN_REF,
  );
  const firstRun = async (beside?: string) =>
    vitestSuite("first run", ["first-run"], { config: "scripts/first-run/vitest.config.ts", databases: "SQLite", ...(beside ? { beside } : {}), env: (await typesChecked) ? { FIRST_RUN_TYPES_CHECKED: "1" } : {} });
  // First run (a fresh clone's `npm start`: its own build, data folder, Temporal server and ports) beside integration,
  // once the dashboard's build is done and the replay soak (which loads the machine on purpose, ~1.6 cores) has
  // ended: the other files wait on Temporal, timers and child processes and left 10–25 % of two cores idle, while
  // beside e2e (CPU-bound throughout) it held the PostgreSQL lane back until it ended (first run 217 s, then that lane
  // 129 s, npm test 2026-12-01). Its own build comes first; its crash tests run a minute or two later, beside the
  // parallel files. With no build, it runs last (below).
  let soakEnded = () => {};
  const soakOver = new Promise<void>((resolve) => (soakEnded = resolve));
  let seenOutput = "";
  const watchIntegration = (chunk: string) => {
    seenOutput = (seenOutput + chunk).slice(-4_000);
    if (SOAK_OR_PARALLEL_FILE_ENDED.test(seenOutput.replace(/\u001b\[[0-9;]*m/g, ""))) soakEnded();
  };
  let firstRunEnded = false;
  const firstRunBeside = Promise.all([prebuild, soakOver]).then(async ([built]) => {
    if (!built.startsWith("✓")) return false;
    await firstRun("integration");
    firstRunEnded = true;
    return true;
  });
  await vitestSuite("integration", ["integration-serial", "integration", "integration-isolated", "security", "security-isolated"], {
    env: { ZAP_TEST_WORKFLOW_BUNDLE_OUT: handedBundle },
    databases: both,
    parts: [
      { name: "security", files: /\.security\.test\.ts$/, databases: pg ? "SQLite; PostgreSQL too for sign-in throttling and the audit chain" : "SQLite only: PostgreSQL unreachable" },
      // The tests on real components npm test provisions (issue 38 §1): a line and a floor of their own, so the
      // summary says they ran and a file that stops being collected fails the run by name.
      { name: "real components", files: REAL_COMPONENT_TESTS, databases: "llama-server with a GGUF model; Arize Phoenix" },
    ],
    onChunk: watchIntegration,
  });
  // An integration run that printed neither (the soak failed to load, say): first run goes on beside e2e.
  soakEnded();
  const built = await prebuild;
  console.log(built);
  // Where e2e's `npm start` looks for it (after the build, which clears `.next`): its first stack starts without a
  // webpack run (~15 CPU-s) while the second waits for it, and scale-out's set-up reuses it.
  if (built.startsWith("✓") && existsSync(handedBundle) && !currentWorkflowBundle(workflowPrint)) adoptWorkflowBundle(handedBundle, workflowPrint);
  await typecheck;
  // The two `next start` servers of scale-out serve the build made beside integration.
  const scaleOut = () => {
    // The bundle `npm start` made from this checkout's workflow code, when current: scale-out's set-up (alone on the
    // critical path) skips its own webpack run.
    const bundle = currentWorkflowBundle(workflowPrint);
    return vitestSuite("scale-out", ["scale-out"], { config: "scripts/scale-out/vitest.config.ts", databases: "PostgreSQL", env: bundle ? { ZAP_TEST_WORKFLOW_BUNDLE: bundle } : {} });
  };
  const chromiumLine = await chromiumReady;
  if (chromiumLine) console.log(chromiumLine);
  if (built.startsWith("✓")) {
    // A first run that outlasted integration goes on beside e2e, whose PostgreSQL lane then waits for it or a lane.
    // Then scale-out alone: beside the shards its 200-run burst starved their stacks, and two tests that waited 15–20 s
    // for a run to move failed together (CI of stop 45, seed 761274174); at low priority (nice 10) beside them, its own
    // runs were starved past their deadlines instead (a fresh-clone run of stop 46).
    await e2eSuites(pg, firstRunEnded ? undefined : firstRunBeside.then(() => undefined));
    await scaleOut();
  } else {
    // No build to share: e2e's `npm start` builds `.next`, and scale-out must not start its servers meanwhile.
    await e2eSuites(pg);
    await scaleOut();
    await firstRun();
  }

  await lint;
  saveVitestResults(PROJECT_ROOT, zapCacheDir());
  rmSync(reportDir, { recursive: true, force: true });
  await postgres?.stop();
  const extraFailures = summarise(pg, speed);
  const total = results.reduce((sum, r) => ({ passed: sum.passed + r.passed, failed: sum.failed + r.failed, skipped: sum.skipped + r.skipped }), {
    passed: 0,
    failed: extraFailures,
    skipped: 0,
  });
  console.log(`total time ${((performance.now() - started) / 1000).toFixed(0)} s`);
  console.log(`tests: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ""}`);
  process.exit(total.failed > 0 ? 1 : 0);
}

main().catch(async (error: unknown) => {
  console.error(`✗ test setup failed: ${error instanceof Error ? error.message : String(error)}`);
  await postgres?.stop().catch(() => undefined);
  console.log("tests: 0 passed, 1 failed");
  process.exit(1);
});
