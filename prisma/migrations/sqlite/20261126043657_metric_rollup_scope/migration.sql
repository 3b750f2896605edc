-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_metric_rollups" (
    "scope" INTEGER NOT NULL DEFAULT 1,
    "resolution" INTEGER NOT NULL,
    "series" TEXT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "graph" TEXT NOT NULL DEFAULT '',
    "version" INTEGER NOT NULL DEFAULT 0,
    "model" TEXT NOT NULL DEFAULT '',
    "tool" TEXT NOT NULL DEFAULT '',
    "starter" TEXT NOT NULL DEFAULT '',
    "bin" INTEGER NOT NULL DEFAULT -1,
    "count" INTEGER NOT NULL DEFAULT 0,
    "sum" REAL NOT NULL DEFAULT 0,

    PRIMARY KEY ("scope", "resolution", "series", "bucket", "label", "graph", "version", "model", "tool", "starter", "bin")
);
INSERT INTO "new_metric_rollups" ("bin", "bucket", "count", "graph", "label", "model", "resolution", "series", "starter", "sum", "tool", "version") SELECT "bin", "bucket", "count", "graph", "label", "model", "resolution", "series", "starter", "sum", "tool", "version" FROM "metric_rollups";
DROP TABLE "metric_rollups";
ALTER TABLE "new_metric_rollups" RENAME TO "metric_rollups";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Hand-written: the dimensionless (scope 0) rows of what was already rolled up.
INSERT INTO "metric_rollups" ("scope", "resolution", "series", "bucket", "label", "bin", "count", "sum")
SELECT 0, "resolution", "series", "bucket", "label", "bin", SUM("count"), SUM("sum") FROM "metric_rollups" WHERE "scope" = 1
GROUP BY "resolution", "series", "bucket", "label", "bin";
