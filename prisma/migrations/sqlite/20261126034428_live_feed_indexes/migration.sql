-- CreateIndex
CREATE INDEX "runs_updated_at_idx" ON "runs"("updated_at");

-- CreateIndex
CREATE INDEX "approval_records_decided_at_idx" ON "approval_records"("decided_at");
