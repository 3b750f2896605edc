// Trace and span ids derived from the ledger's own ids, so exporting a run
// again sends the same ids: a backend that keys spans by id (Phoenix does)
// keeps one copy, and a sub-run's spans land in its root's trace.
import { createHash } from "node:crypto";

function hexOf(text: string, length: number): string {
  const hex = createHash("sha256").update(text).digest("hex").slice(0, length);
  // An all-zero id is invalid in OTLP; a sha256 prefix of zeros is all but impossible, but never send one.
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

/** The trace of a run tree: 32 hex digits from its root run's id. */
export function traceIdFor(rootRunId: string): string {
  return hexOf(`zap-trace\u0000${rootRunId}`, 32);
}

/** A ledger span's OTel id: 16 hex digits from its run's id and its id within the run (`s3`). */
export function spanIdFor(runId: string, ledgerSpanId: string): string {
  return hexOf(`zap-span\u0000${runId}\u0000${ledgerSpanId}`, 16);
}
