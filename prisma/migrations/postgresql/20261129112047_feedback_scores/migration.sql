-- DropIndex
DROP INDEX "feedback_run_id_span_id_user_id_key";

-- AlterTable
ALTER TABLE "feedback" ADD COLUMN     "category" TEXT,
ADD COLUMN     "key" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "value" DOUBLE PRECISION,
ALTER COLUMN "rating" DROP NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "feedback_run_id_span_id_user_id_key_key" ON "feedback"("run_id", "span_id", "user_id", "key");
