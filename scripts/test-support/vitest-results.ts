// Vitest orders a project's files by the durations it recorded last time (longest first, failures first), kept in
// node_modules/.vite/vitest: a fresh clone has none and falls back to file size, which started the 103 s schedules
// file among the last of integration (npm test, 2026-12-01). npm test keeps those records in the cache folder
// outside the checkout, like the e2e lanes' file durations: a clone starts from the last run's order. Keys inside
// are project and relative path, so a record of one clone serves another.
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync } from "node:fs";
import path from "node:path";

/** Where vitest keeps them in a checkout: one folder per config (a hash), each with results.json. */
export const VITEST_RESULTS = path.join("node_modules", ".vite", "vitest");

function saved(cacheDir: string): string {
  return path.join(cacheDir, "vitest-results");
}

function recordsIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "results.json")))
    .map((entry) => entry.name);
}

/** Copies each saved record the checkout lacks into it; answers how many. */
export function restoreVitestResults(root: string, cacheDir: string): number {
  let restored = 0;
  for (const config of recordsIn(saved(cacheDir))) {
    const own = path.join(root, VITEST_RESULTS, config, "results.json");
    if (existsSync(own)) continue;
    mkdirSync(path.dirname(own), { recursive: true });
    copyFileSync(path.join(saved(cacheDir), config, "results.json"), own);
    restored += 1;
  }
  return restored;
}

/** Saves the checkout's records for the next clone, each replaced in one step. */
export function saveVitestResults(root: string, cacheDir: string): void {
  const own = path.join(root, VITEST_RESULTS);
  for (const config of recordsIn(own)) {
    const target = path.join(saved(cacheDir), config, "results.json");
    mkdirSync(path.dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.partial`;
    copyFileSync(path.join(own, config, "results.json"), partial);
    renameSync(partial, target);
  }
}
