-- DropIndex
DROP INDEX "run_facets_kind_value_idx";

-- AlterTable
ALTER TABLE "run_facets" ADD COLUMN     "at" TIMESTAMP(3) NOT NULL;

-- CreateIndex
CREATE INDEX "run_facets_kind_value_at_idx" ON "run_facets"("kind", "value", "at");
