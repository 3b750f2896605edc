-- CreateTable
CREATE TABLE "telemetry_export_stats" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "exported_spans" INTEGER NOT NULL DEFAULT 0,
    "dropped_spans" INTEGER NOT NULL DEFAULT 0,
    "failed_exports" INTEGER NOT NULL DEFAULT 0,
    "dropped_runs" INTEGER NOT NULL DEFAULT 0,
    "last_failure_at" DATETIME,
    "updated_at" DATETIME NOT NULL
);
