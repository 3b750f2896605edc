// What `npm test` reads out of the runners' JSON reports beyond pass/fail: the
// tests that were skipped (each named; in CI a skip off the allow-list is a
// failure), how long each file took (the slowest are printed), and whether a
// suite collected at least its committed number of tests (a floor, so a green
// run cannot hide tests that silently stopped being collected).
import path from "node:path";
import { readFileSync } from "node:fs";
import { PROJECT_ROOT } from "../lib/run";

export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults?: {
    name: string;
    message?: string;
    startTime?: number;
    endTime?: number;
    assertionResults?: { fullName: string; status: string; duration?: number | null; failureMessages?: string[] }[];
  }[];
}

export interface PlaywrightSuite {
  file?: string;
  title: string;
  suites?: PlaywrightSuite[];
  specs?: {
    title: string;
    file: string;
    tests: { status: string; results: { duration?: number; error?: { message?: string }; attachments?: { name: string; path?: string }[] }[] }[];
  }[];
}

export interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  errors?: unknown[];
  suites?: PlaywrightSuite[];
}

/** One test by where it is: `path/to/file › its full title`. */
export interface TestRef {
  file: string;
  title: string;
}

export function testName(ref: TestRef): string {
  return `${ref.file} › ${ref.title}`;
}

function relative(file: string): string {
  return path.relative(PROJECT_ROOT, file) || file;
}

/** Whether this is a CI run: `CI` set to anything but "false"/"0" (GitHub, GitLab and most runners set CI=true). */
export function inCi(env: Record<string, string | undefined> = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return Boolean(value) && value !== "false" && value !== "0";
}

// ── skips ────────────────────────────────────────────────────────────────────

const VITEST_SKIPPED = new Set(["skipped", "pending", "todo", "disabled"]);

export function vitestSkips(report: VitestReport): TestRef[] {
  return (report.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? []).filter((test) => VITEST_SKIPPED.has(test.status)).map((test) => ({ file: relative(file.name), title: test.fullName })),
  );
}

function walkPlaywright(suites: PlaywrightSuite[] = [], titles: string[], visit: (spec: NonNullable<PlaywrightSuite["specs"]>[number], title: string) => void): void {
  for (const suite of suites) {
    const here = suite.file === suite.title ? titles : [...titles, suite.title];
    for (const spec of suite.specs ?? []) visit(spec, [...here, spec.title].join(" › "));
    walkPlaywright(suite.suites, here, visit);
  }
}

export function playwrightSkips(report: PlaywrightReport): TestRef[] {
  const skips: TestRef[] = [];
  walkPlaywright(report.suites, [], (spec, title) => {
    for (const test of spec.tests) if (test.status === "skipped") skips.push({ file: spec.file, title });
  });
  return skips;
}

/** A skip CI accepts: the test (file and title, exact) and why it cannot run there. */
export interface AllowedSkip {
  file: string;
  title: string;
  reason: string;
}

/** The committed allow-list (scripts/test-support/skip-allowlist.json); every entry must carry a reason. */
export function loadSkipAllowList(file = path.join(PROJECT_ROOT, "scripts/test-support/skip-allowlist.json")): AllowedSkip[] {
  const entries = JSON.parse(readFileSync(file, "utf8")) as unknown;
  if (!Array.isArray(entries)) throw new Error(`${relative(file)} must be a JSON array of { file, title, reason }`);
  return entries.map((entry: unknown, index) => {
    const e = entry as Partial<AllowedSkip> | null;
    if (!e || typeof e.file !== "string" || typeof e.title !== "string" || typeof e.reason !== "string" || e.reason.trim().length < 10)
      throw new Error(`${relative(file)}[${index}] needs a file, a title and a reason (a sentence, not a word)`);
    return { file: e.file, title: e.title, reason: e.reason };
  });
}

/** The skips no entry allows. */
export function unallowedSkips(skips: TestRef[], allowed: AllowedSkip[]): TestRef[] {
  return skips.filter((skip) => !allowed.some((a) => a.file === skip.file && a.title === skip.title));
}

// ── times ────────────────────────────────────────────────────────────────────

export interface FileTime {
  file: string;
  seconds: number;
}

export function vitestFileTimes(report: VitestReport): FileTime[] {
  return (report.testResults ?? []).map((file) => {
    const wall = file.startTime !== undefined && file.endTime !== undefined ? (file.endTime - file.startTime) / 1000 : undefined;
    const sum = (file.assertionResults ?? []).reduce((total, test) => total + (test.duration ?? 0), 0) / 1000;
    return { file: relative(file.name), seconds: wall ?? sum };
  });
}

export function playwrightFileTimes(report: PlaywrightReport): FileTime[] {
  const byFile = new Map<string, number>();
  walkPlaywright(report.suites, [], (spec) => {
    const ms = spec.tests.reduce((total, test) => total + test.results.reduce((t, r) => t + (r.duration ?? 0), 0), 0);
    const file = path.join("e2e", spec.file);
    byFile.set(file, (byFile.get(file) ?? 0) + ms / 1000);
  });
  return [...byFile].map(([file, seconds]) => ({ file, seconds }));
}

export function slowest(times: FileTime[], count = 10): FileTime[] {
  return [...times].sort((a, b) => b.seconds - a.seconds).slice(0, count);
}

// ── floors ───────────────────────────────────────────────────────────────────

/**
 * The fewest tests each suite may collect (scripts/test-support/test-floor.json). Raise it when tests
 * are added; lower it only in the commit that removes tests, saying why in that commit.
 */
export function loadTestFloors(file = path.join(PROJECT_ROOT, "scripts/test-support/test-floor.json")): Record<string, number> {
  const floors = JSON.parse(readFileSync(file, "utf8")) as unknown;
  if (typeof floors !== "object" || floors === null || Array.isArray(floors)) throw new Error(`${relative(file)} must map suite names to numbers`);
  const out: Record<string, number> = {};
  for (const [suite, value] of Object.entries(floors)) {
    if (suite.startsWith("$")) continue; // "$comment"
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) throw new Error(`${relative(file)}: ${suite} must be a whole number`);
    out[suite] = value;
  }
  return out;
}

/** A note when a suite collected fewer tests than its floor, else null. */
export function belowFloor(suite: string, collected: number, floors: Record<string, number>): string | null {
  const floor = floors[suite];
  if (floor === undefined || collected >= floor) return null;
  return `collected ${collected} tests, below the floor of ${floor} (scripts/test-support/test-floor.json): a test file stopped being collected, or tests were removed without lowering the floor`;
}

// ── one vitest run, several suites ───────────────────────────────────────────

/** The part of a report whose files `match` selects, with its counts recomputed from its tests. */
export function vitestReportPart(report: VitestReport, match: (file: string) => boolean): VitestReport {
  const testResults = (report.testResults ?? []).filter((file) => match(file.name));
  const count = (statuses: string[]) => testResults.reduce((n, file) => n + (file.assertionResults ?? []).filter((t) => statuses.includes(t.status)).length, 0);
  // A file that failed outside any test (an import, a hook) counts as one failure.
  const brokenFiles = testResults.filter((file) => file.message && !(file.assertionResults ?? []).some((t) => t.status === "failed")).length;
  return {
    numPassedTests: count(["passed"]),
    numFailedTests: count(["failed"]) + brokenFiles,
    numPendingTests: count(["skipped", "pending", "disabled"]),
    numTodoTests: count(["todo"]),
    testResults,
  };
}

/**
 * The run's timeline, and its critical path: from the suite that ended last, back through the suite that ended
 * last before each one started (what it waited for). Suites reported out of one shared run count once.
 */
export function criticalPath(suites: readonly { name: string; seconds: number; endedAt: number }[]): { name: string; from: number; to: number }[] {
  const spans = new Map<string, { name: string; from: number; to: number }>();
  for (const suite of suites) {
    const key = `${suite.endedAt.toFixed(1)}:${suite.seconds.toFixed(1)}`;
    const seen = spans.get(key);
    if (seen) seen.name += ` + ${suite.name}`;
    else spans.set(key, { name: suite.name, from: Math.max(0, suite.endedAt - suite.seconds), to: suite.endedAt });
  }
  const all = [...spans.values()];
  const path: { name: string; from: number; to: number }[] = [];
  let current = all.reduce<{ name: string; from: number; to: number } | undefined>((last, span) => (!last || span.to > last.to ? span : last), undefined);
  while (current) {
    path.unshift(current);
    const start = current.from;
    // What this suite waited for: the latest end at or just before its start (1 s of slack for bookkeeping).
    current = all.filter((span) => span.to <= start + 1 && span !== current).reduce<{ name: string; from: number; to: number } | undefined>((last, span) => (!last || span.to > last.to ? span : last), undefined);
  }
  return path;
}

/**
 * The errors vitest caught outside any test (an unhandled rejection or exception fails the run with no failed test):
 * each one's first line and the file vitest says it came from, so the summary at the tail of the log names them.
 */
export function unhandledErrors(printed: string): string[] {
  const lines = printed.replace(/\u001b\[[0-9;]*m/g, "").split("\n");
  const start = lines.findIndex((line) => /Unhandled Errors?\b/.test(line) && line.includes("⎯"));
  if (start < 0) return ["(an error outside any test: vitest's output above says which)"];
  const found: string[] = [];
  for (let i = start + 1; i < lines.length && found.length < 5; i++) {
    if (!/⎯ Unhandled/.test(lines[i] ?? "")) continue;
    const kind = (lines[i] ?? "").replace(/⎯/g, "").trim();
    const message = lines.slice(i + 1).find((line) => line.trim()) ?? "";
    const origin = lines.slice(i + 1, i + 80).find((line) => /originated in/.test(line)) ?? "";
    found.push(`(${kind}) ${message.trim().slice(0, 200)}${origin ? ` — ${origin.trim().slice(0, 160)}` : ""}`);
  }
  return found.length ? found : ["(an error outside any test: vitest's output above says which)"];
}
