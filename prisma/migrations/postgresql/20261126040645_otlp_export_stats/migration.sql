-- CreateTable
CREATE TABLE "telemetry_export_stats" (
    "id" TEXT NOT NULL,
    "exported_spans" INTEGER NOT NULL DEFAULT 0,
    "dropped_spans" INTEGER NOT NULL DEFAULT 0,
    "failed_exports" INTEGER NOT NULL DEFAULT 0,
    "dropped_runs" INTEGER NOT NULL DEFAULT 0,
    "last_failure_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "telemetry_export_stats_pkey" PRIMARY KEY ("id")
);
