-- CreateTable
CREATE TABLE "monitors" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "series" TEXT NOT NULL,
    "stat" TEXT,
    "label" TEXT,
    "comparator" TEXT NOT NULL,
    "threshold" REAL NOT NULL,
    "window_minutes" INTEGER NOT NULL,
    "filters" TEXT NOT NULL DEFAULT '{}',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_by_id" TEXT,
    "updated_by_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    "last_value" REAL,
    "last_evaluated_at" DATETIME
);

-- CreateTable
CREATE TABLE "monitor_alerts" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "monitor_id" TEXT,
    "monitor_name" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "open_key" TEXT,
    "condition" TEXT NOT NULL,
    "value_at_fire" REAL NOT NULL,
    "last_value" REAL,
    "fired_at" DATETIME NOT NULL,
    "resolved_at" DATETIME,
    "resolved_reason" TEXT,
    "fired_notified_at" DATETIME,
    "resolved_notified_at" DATETIME,
    "notify_attempts" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "monitor_alerts_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitors" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "monitors_name_key" ON "monitors"("name");

-- CreateIndex
CREATE UNIQUE INDEX "monitor_alerts_open_key_key" ON "monitor_alerts"("open_key");

-- CreateIndex
CREATE INDEX "monitor_alerts_monitor_id_fired_at_idx" ON "monitor_alerts"("monitor_id", "fired_at");

-- CreateIndex
CREATE INDEX "monitor_alerts_state_fired_at_idx" ON "monitor_alerts"("state", "fired_at");
