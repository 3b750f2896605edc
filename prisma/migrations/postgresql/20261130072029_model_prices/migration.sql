-- CreateTable
CREATE TABLE "model_prices" (
    "id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "effective_from" TIMESTAMP(3) NOT NULL,
    "input" DOUBLE PRECISION NOT NULL,
    "output" DOUBLE PRECISION NOT NULL,
    "cached_read" DOUBLE PRECISION,
    "cached_write" DOUBLE PRECISION,
    "reasoning" DOUBLE PRECISION,
    "created_by_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "model_prices_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "model_prices_model_effective_from_key" ON "model_prices"("model", "effective_from");
