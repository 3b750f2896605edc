-- AlterTable
ALTER TABLE "runs" ADD COLUMN "schedule_id" TEXT;

-- CreateTable
CREATE TABLE "schedules" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "graph_name" TEXT NOT NULL,
    "version" INTEGER,
    "cron" TEXT,
    "interval_seconds" INTEGER,
    "time_zone" TEXT NOT NULL DEFAULT 'UTC',
    "jitter_seconds" INTEGER NOT NULL DEFAULT 0,
    "task" TEXT NOT NULL,
    "context" TEXT NOT NULL DEFAULT '{}',
    "overlap" TEXT NOT NULL DEFAULT 'skip',
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "pause_note" TEXT,
    "failure_limit" INTEGER NOT NULL DEFAULT 3,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "owner_id" TEXT NOT NULL,
    "last_fired_at" DATETIME,
    "last_run_id" TEXT,
    "last_outcome" TEXT,
    "last_error" TEXT,
    "sync_error" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "schedules_name_key" ON "schedules"("name");

-- CreateIndex
CREATE INDEX "schedules_owner_id_idx" ON "schedules"("owner_id");

-- CreateIndex
CREATE INDEX "runs_schedule_id_idx" ON "runs"("schedule_id");
