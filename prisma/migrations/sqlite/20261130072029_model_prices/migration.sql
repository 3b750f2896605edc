-- CreateTable
CREATE TABLE "model_prices" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "model" TEXT NOT NULL,
    "effective_from" DATETIME NOT NULL,
    "input" REAL NOT NULL,
    "output" REAL NOT NULL,
    "cached_read" REAL,
    "cached_write" REAL,
    "reasoning" REAL,
    "created_by_id" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "model_prices_model_effective_from_key" ON "model_prices"("model", "effective_from");
