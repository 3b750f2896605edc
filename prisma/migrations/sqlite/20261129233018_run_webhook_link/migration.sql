-- AlterTable
ALTER TABLE "runs" ADD COLUMN "webhook_id" TEXT;

-- CreateIndex
CREATE INDEX "runs_webhook_id_idx" ON "runs"("webhook_id");
