-- CreateTable
CREATE TABLE "spend_limits" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scope" TEXT NOT NULL,
    "scope_id" TEXT NOT NULL DEFAULT '',
    "period" TEXT NOT NULL,
    "amount_usd" REAL NOT NULL,
    "created_by" TEXT,
    "updated_by" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "spend_limits_scope_scope_id_period_key" ON "spend_limits"("scope", "scope_id", "period");
