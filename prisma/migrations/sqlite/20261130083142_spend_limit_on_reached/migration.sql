-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_spend_limits" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scope" TEXT NOT NULL,
    "scope_id" TEXT NOT NULL DEFAULT '',
    "period" TEXT NOT NULL,
    "amount_usd" REAL NOT NULL,
    "on_reached" TEXT NOT NULL DEFAULT 'ask',
    "created_by" TEXT,
    "updated_by" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_spend_limits" ("amount_usd", "created_at", "created_by", "id", "period", "scope", "scope_id", "updated_at", "updated_by") SELECT "amount_usd", "created_at", "created_by", "id", "period", "scope", "scope_id", "updated_at", "updated_by" FROM "spend_limits";
DROP TABLE "spend_limits";
ALTER TABLE "new_spend_limits" RENAME TO "spend_limits";
CREATE UNIQUE INDEX "spend_limits_scope_scope_id_period_key" ON "spend_limits"("scope", "scope_id", "period");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
