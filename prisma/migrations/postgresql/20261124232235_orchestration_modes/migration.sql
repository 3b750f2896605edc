-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "output_data" TEXT,
ADD COLUMN     "routed_to" TEXT;

-- CreateIndex
CREATE INDEX "runs_routed_to_idx" ON "runs"("routed_to");
