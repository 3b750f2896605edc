import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { lintInputs, lintKey, lintPassedBefore, recordLintPassed } from "./lint-cache";

const made: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "zap-lint-cache-"));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A checkout with a source file, a doc, and an ignored output. */
function checkout(): string {
  const root = tempDir();
  execFileSync("git", ["init", "-q"], { cwd: root });
  mkdirSync(path.join(root, "lib"));
  mkdirSync(path.join(root, "docs"));
  writeFileSync(path.join(root, ".gitignore"), ".next/\n");
  writeFileSync(path.join(root, "lib", "a.ts"), "export const a = 1;\n");
  writeFileSync(path.join(root, "docs", "guide.md"), "# guide\n");
  writeFileSync(path.join(root, "README.md"), "# readme\n");
  return root;
}

describe("the lint pass kept per tree", () => {
  test("any byte of a source changes the key; prose and ignored outputs do not", () => {
    const root = checkout();
    const before = lintKey(root);
    expect(lintInputs(root)).toEqual([".gitignore", "lib/a.ts"]);

    writeFileSync(path.join(root, "docs", "guide.md"), "# guide, edited\n");
    writeFileSync(path.join(root, "README.md"), "# readme, edited\n");
    mkdirSync(path.join(root, ".next"));
    writeFileSync(path.join(root, ".next", "BUILD_ID"), "x");
    expect(lintKey(root)).toBe(before);

    writeFileSync(path.join(root, "lib", "a.ts"), "export const a = 2;\n");
    expect(lintKey(root)).not.toBe(before);
  });

  test("a new file, even one git does not track yet, changes the key; so does a rename", () => {
    const root = checkout();
    const before = lintKey(root);
    writeFileSync(path.join(root, "lib", "b.ts"), "export const b = 1;\n");
    const withNew = lintKey(root);
    expect(withNew).not.toBe(before);
    rmSync(path.join(root, "lib", "b.ts"));
    writeFileSync(path.join(root, "lib", "c.ts"), "export const b = 1;\n");
    expect(lintKey(root)).not.toBe(withNew);
  });

  test("only a recorded tree counts as passed, and only the newest twenty are kept", () => {
    const cache = tempDir();
    expect(lintPassedBefore(cache, "k0")).toBeNull();
    const at = new Date("2026-12-01T07:00:00.000Z");
    recordLintPassed(cache, "k0", at);
    expect(lintPassedBefore(cache, "k0")?.toISOString()).toBe(at.toISOString());
    expect(lintPassedBefore(cache, "k1")).toBeNull();
    for (let i = 1; i <= 25; i++) recordLintPassed(cache, `k${i}`, new Date(at.getTime() + i * 1_000));
    expect(readdirSync(path.join(cache, "lint-passed")).filter((name) => !name.startsWith("."))).toHaveLength(20);
    expect(lintPassedBefore(cache, "k25")).not.toBeNull();
    expect(lintPassedBefore(cache, "k5"), "the oldest are the ones deleted").toBeNull();
    expect(lintPassedBefore(cache, "k6")).not.toBeNull();
  });
});
