-- AlterTable
ALTER TABLE "metric_rollups" DROP CONSTRAINT "metric_rollups_pkey",
ADD COLUMN     "scope" INTEGER NOT NULL DEFAULT 1,
ADD CONSTRAINT "metric_rollups_pkey" PRIMARY KEY ("scope", "resolution", "series", "bucket", "label", "graph", "version", "model", "tool", "starter", "bin");

-- Hand-written: the dimensionless (scope 0) rows of what was already rolled up.
INSERT INTO "metric_rollups" ("scope", "resolution", "series", "bucket", "label", "bin", "count", "sum")
SELECT 0, "resolution", "series", "bucket", "label", "bin", SUM("count"), SUM("sum") FROM "metric_rollups" WHERE "scope" = 1
GROUP BY "resolution", "series", "bucket", "label", "bin";
