-- CreateTable
CREATE TABLE "spend_limits" (
    "id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "scope_id" TEXT NOT NULL DEFAULT '',
    "period" TEXT NOT NULL,
    "amount_usd" DOUBLE PRECISION NOT NULL,
    "created_by" TEXT,
    "updated_by" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "spend_limits_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "spend_limits_scope_scope_id_period_key" ON "spend_limits"("scope", "scope_id", "period");
