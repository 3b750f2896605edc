// npm test's typecheck is `tsc --incremental`, its state kept outside the
// checkout (beside the local model and Phoenix, in the cache folder), so a
// fresh clone of a commit checked before re-checks only what differs from it.
// Sound by TypeScript's own design: the state records each file's content hash
// and the compiler's version and options, and tsc checks again every file whose
// hash changed and every file that depends on one (a new version or option
// checks everything). Its paths are relative to the state file, so one saved in
// one clone serves another at the same place inside it.
import { copyFileSync, existsSync, mkdirSync, renameSync } from "node:fs";
import path from "node:path";

/** Where tsc keeps its state inside a checkout (`.data/` is ignored by git). */
export const TYPECHECK_STATE = path.join(".data", "typecheck", "tsconfig.tsbuildinfo");

/** The saved state in the cache folder. */
export function savedTypecheckState(cacheDir: string): string {
  return path.join(cacheDir, "typecheck", "tsconfig.tsbuildinfo");
}

/** Copies the saved state into the checkout unless it has its own; says whether tsc starts from one. */
export function restoreTypecheckState(root: string, cacheDir: string): boolean {
  const own = path.join(root, TYPECHECK_STATE);
  if (existsSync(own)) return true;
  const saved = savedTypecheckState(cacheDir);
  if (!existsSync(saved)) return false;
  mkdirSync(path.dirname(own), { recursive: true });
  copyFileSync(saved, own);
  return true;
}

/** Saves the checkout's state for the next clone, replacing the saved one in one step (two runs at once each write a whole file). */
export function saveTypecheckState(root: string, cacheDir: string): void {
  const own = path.join(root, TYPECHECK_STATE);
  if (!existsSync(own)) return;
  const saved = savedTypecheckState(cacheDir);
  mkdirSync(path.dirname(saved), { recursive: true });
  const partial = `${saved}.${process.pid}.partial`;
  copyFileSync(own, partial);
  renameSync(partial, saved);
}
