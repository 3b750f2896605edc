-- CreateIndex
CREATE INDEX "online_evaluations_status_run_ended_at_idx" ON "online_evaluations"("status", "run_ended_at");
