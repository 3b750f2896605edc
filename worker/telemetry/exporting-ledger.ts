// The worker's one wiring point for the OTLP export: after the ledger writer
// has written a batch that ends a root run, the run tree is queued for export.
// The export reads the ledger later, in the background: the activity that
// wrote the batch never waits for it, and nothing in it can fail the write.
import type { LedgerBatch } from "../../lib/contract/workflow";
import { exportTriggerOf } from "../../lib/telemetry/trigger";
import type { RunExporter } from "../../lib/telemetry/exporter";

interface LedgerWriterLike {
  write(batch: LedgerBatch): Promise<void>;
}

/** `writer`, telling `exporter` about every root run it records as ended (unchanged without an exporter). */
export function exportingLedgerWriter<W extends LedgerWriterLike>(writer: W, exporter: RunExporter | null): W {
  if (!exporter) return writer;
  return {
    ...writer,
    async write(batch: LedgerBatch): Promise<void> {
      await writer.write(batch);
      const rootRunId = exportTriggerOf(batch);
      if (rootRunId) exporter.requestExport(rootRunId);
    },
  };
}
