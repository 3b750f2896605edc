-- CreateTable
CREATE TABLE "metric_rollups" (
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
    "sum" DOUBLE PRECISION NOT NULL DEFAULT 0,

    CONSTRAINT "metric_rollups_pkey" PRIMARY KEY ("resolution","series","bucket","label","graph","version","model","tool","starter","bin")
);

-- CreateTable
CREATE TABLE "metric_backfill_state" (
    "id" INTEGER NOT NULL,
    "backfill_before_ms" DOUBLE PRECISION NOT NULL,
    "cursor_run_id" TEXT NOT NULL DEFAULT '',
    "cursor_seq" INTEGER NOT NULL DEFAULT 0,
    "done" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "metric_backfill_state_pkey" PRIMARY KEY ("id")
);

-- Hand-written: the backfill's one row. Events before this moment were written without rollups (lib/metrics/server/backfill.ts derives them once).
INSERT INTO "metric_backfill_state" ("id", "backfill_before_ms") VALUES (1, extract(epoch FROM clock_timestamp()) * 1000);
