-- AlterTable
ALTER TABLE "runs" ADD COLUMN "plan_outcome" TEXT;

-- CreateIndex
CREATE INDEX "runs_plan_outcome_idx" ON "runs"("plan_outcome");
