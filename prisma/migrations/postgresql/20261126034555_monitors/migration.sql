-- CreateTable
CREATE TABLE "monitors" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "series" TEXT NOT NULL,
    "stat" TEXT,
    "label" TEXT,
    "comparator" TEXT NOT NULL,
    "threshold" DOUBLE PRECISION NOT NULL,
    "window_minutes" INTEGER NOT NULL,
    "filters" TEXT NOT NULL DEFAULT '{}',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_by_id" TEXT,
    "updated_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "last_value" DOUBLE PRECISION,
    "last_evaluated_at" TIMESTAMP(3),

    CONSTRAINT "monitors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_alerts" (
    "id" TEXT NOT NULL,
    "monitor_id" TEXT,
    "monitor_name" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "open_key" TEXT,
    "condition" TEXT NOT NULL,
    "value_at_fire" DOUBLE PRECISION NOT NULL,
    "last_value" DOUBLE PRECISION,
    "fired_at" TIMESTAMP(3) NOT NULL,
    "resolved_at" TIMESTAMP(3),
    "resolved_reason" TEXT,
    "fired_notified_at" TIMESTAMP(3),
    "resolved_notified_at" TIMESTAMP(3),
    "notify_attempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "monitor_alerts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "monitors_name_key" ON "monitors"("name");

-- CreateIndex
CREATE UNIQUE INDEX "monitor_alerts_open_key_key" ON "monitor_alerts"("open_key");

-- CreateIndex
CREATE INDEX "monitor_alerts_monitor_id_fired_at_idx" ON "monitor_alerts"("monitor_id", "fired_at");

-- CreateIndex
CREATE INDEX "monitor_alerts_state_fired_at_idx" ON "monitor_alerts"("state", "fired_at");

-- AddForeignKey
ALTER TABLE "monitor_alerts" ADD CONSTRAINT "monitor_alerts_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE SET NULL ON UPDATE CASCADE;
