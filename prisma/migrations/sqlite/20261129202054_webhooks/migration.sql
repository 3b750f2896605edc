-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "graph_name" TEXT NOT NULL,
    "version" INTEGER,
    "mapping" TEXT NOT NULL DEFAULT '{"kind":"task"}',
    "secret" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "rate_limit_per_minute" INTEGER NOT NULL DEFAULT 60,
    "owner_id" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    "rotated_at" DATETIME
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "endpoint_id" TEXT NOT NULL,
    "received_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "idempotency_key" TEXT,
    "key_sent" TEXT,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "http_status" INTEGER NOT NULL,
    "run_id" TEXT,
    "body_digest" TEXT,
    "body_bytes" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "webhook_endpoints_graph_name_idx" ON "webhook_endpoints"("graph_name");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_received_at_idx" ON "webhook_deliveries"("endpoint_id", "received_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_id_idempotency_key_key" ON "webhook_deliveries"("endpoint_id", "idempotency_key");
