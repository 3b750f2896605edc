import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const SKIP = new Set(["node_modules", ".next", "generated", ".data", ".tools"]);

function collect(entry: string, into: string[]): void {
  if (!existsSync(entry)) return;
  if (statSync(entry).isDirectory()) {
    for (const child of readdirSync(entry).sort()) {
      if (!SKIP.has(child)) collect(path.join(entry, child), into);
    }
  } else {
    into.push(entry);
  }
}

/** A content hash of files and folders (relative to `root`), to tell whether an output is stale. */
export function fingerprint(root: string, entries: string[]): string {
  const files: string[] = [];
  for (const entry of entries) collect(path.join(root, entry), files);
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(path.relative(root, file));
    hash.update(readFileSync(file));
  }
  return hash.digest("hex");
}
