// Whether node_modules matches package.json/package-lock.json. Plain JavaScript
// with Node built-ins only: bootstrap.mjs runs it before dependencies exist.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** A hash of the files that decide what `npm install` puts in `root`/node_modules. */
export function dependencyFingerprint(root) {
  const hash = createHash("sha256");
  for (const file of ["package.json", "package-lock.json"]) {
    const full = path.join(root, file);
    if (existsSync(full)) hash.update(readFileSync(full));
  }
  return hash.digest("hex");
}

function stampPath(root) {
  return path.join(root, "node_modules", ".zap-deps-fingerprint");
}

/** Whether `root`/node_modules was installed from the current package files. */
export function dependenciesUpToDate(root) {
  const stamp = stampPath(root);
  const current = existsSync(stamp) ? readFileSync(stamp, "utf8").trim() : "";
  return current === dependencyFingerprint(root) && existsSync(path.join(root, "node_modules", ".bin", "tsx"));
}

/** Records that `root`/node_modules matches the current package files. */
export function markDependenciesInstalled(root) {
  const stamp = stampPath(root);
  // A new file, never a write through: node_modules may be a hard-linked copy
  // (the first-run test makes one) whose stamp is shared with another checkout.
  rmSync(stamp, { force: true });
  writeFileSync(stamp, dependencyFingerprint(root));
}
