import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { restoreVitestResults, saveVitestResults, VITEST_RESULTS } from "./vitest-results";

const made: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "zap-vitest-results-"));
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const record = (durationMs: number) => JSON.stringify({ version: "4.1.12", results: [["integration:lib/a.int.test.ts", { duration: durationMs, failed: false }]] });

describe("vitest's recorded durations kept outside the checkout", () => {
  test("a run's records reach the next clone, which then orders by them", () => {
    const cache = tempDir();
    const first = tempDir();
    mkdirSync(path.join(first, VITEST_RESULTS, "da39a3ee"), { recursive: true });
    writeFileSync(path.join(first, VITEST_RESULTS, "da39a3ee", "results.json"), record(103_000));
    saveVitestResults(first, cache);

    const clone = tempDir();
    expect(restoreVitestResults(clone, cache)).toBe(1);
    expect(readFileSync(path.join(clone, VITEST_RESULTS, "da39a3ee", "results.json"), "utf8")).toBe(record(103_000));
  });

  test("a checkout's own records are not overwritten by older saved ones", () => {
    const cache = tempDir();
    const older = tempDir();
    mkdirSync(path.join(older, VITEST_RESULTS, "h"), { recursive: true });
    writeFileSync(path.join(older, VITEST_RESULTS, "h", "results.json"), record(1));
    saveVitestResults(older, cache);

    const own = tempDir();
    mkdirSync(path.join(own, VITEST_RESULTS, "h"), { recursive: true });
    writeFileSync(path.join(own, VITEST_RESULTS, "h", "results.json"), record(2));
    expect(restoreVitestResults(own, cache)).toBe(0);
    expect(readFileSync(path.join(own, VITEST_RESULTS, "h", "results.json"), "utf8")).toBe(record(2));
  });

  test("nothing saved, nothing restored", () => {
    expect(restoreVitestResults(tempDir(), tempDir())).toBe(0);
  });
});
