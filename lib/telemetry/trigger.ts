// When a ledger batch means a run tree is ready to export: its root run
// answered, failed or was cancelled, or its root span ended (the run closed
// after its follow-up window). Each of these exports the tree again with the
// same ids, so a follow-up turn's spans join the trace the first export began.
import type { LedgerBatch } from "../contract/workflow";

const ENDING_EVENTS = new Set(["run_completed", "run_failed", "run_cancelled"]);

/** The root run id to export after this batch is written, or null. */
export function exportTriggerOf(batch: LedgerBatch): string | null {
  if (batch.run.parentRunId !== null) return null;
  const ended = batch.events.some((e) => ENDING_EVENTS.has(e.type)) || batch.spans.some((s) => s.kind === "run" && s.endedAt !== null);
  return ended ? batch.run.runId : null;
}
