// What the page showed when an e2e test failed, for the summary. CI keeps only
// the summary (traces are off there, and the run's folder is gone once it is
// read), so a failure such as "the saved view's link was never found" said
// nothing of whether the page held an error, a closed form or another page:
// stop 60's search.spec failure could not be explained. Playwright writes the
// page's accessibility snapshot next to each failure (error-context.md); its
// main landmark, without link targets, is the part worth reading.
import { existsSync, readFileSync } from "node:fs";

/** Lines of the page's main landmark (or of the whole snapshot when it has none), at most `limit`, link targets left out. */
export function pageAtFailure(errorContext: string, limit = 40): string[] {
  const snapshot = /```yaml\n([\s\S]*?)```/.exec(errorContext)?.[1];
  if (!snapshot) return [];
  const lines = snapshot.split("\n").filter((line) => line.trim() !== "" && !/^\s*- \/url:/.test(line));
  const mainAt = lines.findIndex((line) => /^\s*- main\b/.test(line));
  let picked = lines;
  if (mainAt >= 0) {
    const indent = /^\s*/.exec(lines[mainAt] ?? "")?.[0].length ?? 0;
    const end = lines.findIndex((line, i) => i > mainAt && (/^\s*/.exec(line)?.[0].length ?? 0) <= indent);
    picked = lines.slice(mainAt, end < 0 ? undefined : end);
  }
  const shown = picked.slice(0, limit).map((line) => line.slice(0, 160));
  return picked.length > limit ? [...shown, `… ${picked.length - limit} more lines`] : shown;
}

/** The same, read from the error-context attachment's file (nothing when it was not written). */
export function pageAtFailureFile(file: string | undefined, limit?: number): string[] {
  if (!file || !existsSync(file)) return [];
  return pageAtFailure(readFileSync(file, "utf8"), limit);
}
