// How npm test deals the e2e files to its SQLite lanes. Playwright's `--shard`
// deals by count of tests, so the two lanes ended up to a minute apart (5.2 and
// 6.0 min, a fresh-clone run on 2026-12-01) while the machine idled behind the
// longer one. With each file's duration from the last run (kept in the cache
// outside the checkout), the files are dealt longest first to the lane that
// ends soonest; without them (a first run on this machine), Playwright shards.
import path from "node:path";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { PROJECT_ROOT } from "../lib/run";
import type { FileTime } from "./test-report";

const RECORD = "e2e-file-seconds.json";

const recordSchema = z.record(z.string().regex(/^e2e\/[\w.-]+\.spec\.ts$/), z.number().nonnegative().finite());

/** Every e2e spec file, as `e2e/<name>.spec.ts`, alphabetically. */
export function e2eSpecFiles(root = PROJECT_ROOT): string[] {
  return readdirSync(path.join(root, "e2e"))
    .filter((name) => name.endsWith(".spec.ts"))
    .sort()
    .map((name) => `e2e/${name}`);
}

/** The seconds each e2e file took in the last run that recorded them; empty when none did (or the record is unreadable). */
export function loadE2eFileSeconds(cacheDir: string): Record<string, number> {
  const file = path.join(cacheDir, RECORD);
  if (!existsSync(file)) return {};
  try {
    const parsed = recordSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** Keeps this run's per-file seconds for the next run's dealing (files this run did not time keep their last figure). */
export function saveE2eFileSeconds(cacheDir: string, times: FileTime[]): void {
  const merged = { ...loadE2eFileSeconds(cacheDir) };
  for (const { file, seconds } of times) if (recordSchema.safeParse({ [file]: seconds }).success) merged[file] = Math.round(seconds * 10) / 10;
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(path.join(cacheDir, RECORD), `${JSON.stringify(merged, null, 1)}\n`);
}

export interface DealtLanes {
  /** Each lane's files, alphabetically (Playwright runs them in the shuffle seed's order). */
  lanes: string[][];
  /** Each lane's expected seconds, its head start included. */
  expectedSeconds: number[];
}

/**
 * Deals `files` to lanes longest first, each to the lane expected to end soonest (LPT: within 4/3 of the best split).
 * `startsAfter` is each lane's expected delay before its first test (a lane that starts once another's stack
 * answers). A file without a figure counts as the median of the known ones. Null when fewer than half the files
 * have a figure: the record is then too old or missing, and Playwright's shard is as good a guess.
 */
export function dealToLanes(files: string[], seconds: Record<string, number>, startsAfter: number[]): DealtLanes | null {
  const known = files.filter((file) => seconds[file] !== undefined);
  if (startsAfter.length === 0 || known.length * 2 < files.length) return null;
  const sorted = known.map((file) => seconds[file] ?? 0).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const cost = (file: string) => seconds[file] ?? median;
  // Longest first; equal figures in name order, so the same record deals the same lanes.
  const order = [...files].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b));
  const lanes = startsAfter.map(() => [] as string[]);
  const expectedSeconds = [...startsAfter];
  for (const file of order) {
    let soonest = 0;
    for (let i = 1; i < lanes.length; i++) if ((expectedSeconds[i] ?? 0) < (expectedSeconds[soonest] ?? 0)) soonest = i;
    lanes[soonest]?.push(file);
    expectedSeconds[soonest] = (expectedSeconds[soonest] ?? 0) + cost(file);
  }
  // A lane without files would run every file (Playwright with no filter): shard instead.
  if (lanes.some((lane) => lane.length === 0)) return null;
  return { lanes: lanes.map((lane) => lane.sort()), expectedSeconds: expectedSeconds.map((s) => Math.round(s)) };
}

/** Playwright's file filter for exactly these files (its CLI arguments are regular expressions matched against paths). */
export function exactFileFilters(files: string[]): string[] {
  return files.map((file) => `${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
}
