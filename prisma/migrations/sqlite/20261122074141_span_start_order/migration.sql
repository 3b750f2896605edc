-- CreateIndex
CREATE INDEX "run_spans_run_id_started_at_span_id_idx" ON "run_spans"("run_id", "started_at", "span_id");
