// npm test's lint is one single-threaded ESLint with typed rules: ~100 CPU-s on two cores that the suites need.
// Its verdict is a function of what it reads, so a tree ESLint passed before on this machine is not linted again:
// the key is a content hash of every file beside the docs (sources, configs, the lockfile that pins ESLint and its
// plugins, the Prisma schema the generated types come from), and only a clean pass is recorded under it. A change
// anywhere in those files, even one ESLint would not read, lints everything again: typed rules judge a file by the
// types of others, so a per-file cache (ESLint's own --cache) could pass a file whose callee became async.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";

/** What the key leaves out: prose, which no lint rule reads. */
const NOT_LINT_INPUTS = /^(docs\/|\.ci\/)|\.md$/;

/** Passes kept: the newest few trees (a session's commits), older ones deleted. */
const KEPT = 20;

/**
 * The files the key covers: what git tracks or would track (its ignore rules leave out what runs generate: `.next`,
 * the generated Prisma clients, which the schema and lockfile decide), less prose. Sorted, relative to `root`.
 */
export function lintInputs(root: string): string[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return [...new Set(listed.split("\0").filter((file) => file && !NOT_LINT_INPUTS.test(file)))].filter((file) => existsSync(path.join(root, file))).sort();
}

/** The content hash of the tree as ESLint would read it: every input's path and bytes. */
export function lintKey(root: string): string {
  const hash = createHash("sha256");
  for (const file of lintInputs(root)) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function passesDir(cacheDir: string): string {
  return path.join(cacheDir, "lint-passed");
}

/** When this tree last passed lint on this machine, or null. */
export function lintPassedBefore(cacheDir: string, key: string): Date | null {
  const file = path.join(passesDir(cacheDir), key);
  if (!existsSync(file)) return null;
  const when = new Date(readFileSync(file, "utf8").trim());
  return Number.isNaN(when.getTime()) ? null : when;
}

/** Records a clean pass of this tree (one whole file, renamed into place), keeping the newest KEPT. */
export function recordLintPassed(cacheDir: string, key: string, now: Date = new Date()): void {
  const dir = passesDir(cacheDir);
  mkdirSync(dir, { recursive: true });
  const partial = path.join(dir, `.${key}.${process.pid}.partial`);
  writeFileSync(partial, now.toISOString());
  utimesSync(partial, now, now);
  renameSync(partial, path.join(dir, key));
  const kept = readdirSync(dir)
    .filter((name) => !name.startsWith("."))
    .map((name) => ({ name, at: statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of kept.slice(KEPT)) rmSync(path.join(dir, old.name), { force: true });
}
