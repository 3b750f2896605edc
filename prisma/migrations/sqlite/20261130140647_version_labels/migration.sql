-- AlterTable
ALTER TABLE "runs" ADD COLUMN "label" TEXT;
ALTER TABLE "runs" ADD COLUMN "label_variant" TEXT;

-- CreateTable
CREATE TABLE "agent_labels" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agent_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "split_version" INTEGER,
    "split_percent" REAL NOT NULL DEFAULT 0,
    "split_sticky" TEXT,
    "updated_by_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "agent_labels_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "protected_labels" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "graph" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "protected" BOOLEAN NOT NULL,
    "updated_by_id" TEXT,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "label_move_requests" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agent_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "from_version" INTEGER,
    "change" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "requested_by_id" TEXT NOT NULL,
    "decided_by_id" TEXT,
    "decision_note" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" DATETIME,
    CONSTRAINT "label_move_requests_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "agent_labels_agent_id_name_key" ON "agent_labels"("agent_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "protected_labels_graph_name_key" ON "protected_labels"("graph", "name");

-- CreateIndex
CREATE INDEX "label_move_requests_status_created_at_idx" ON "label_move_requests"("status", "created_at");

-- CreateIndex
CREATE INDEX "label_move_requests_agent_id_label_idx" ON "label_move_requests"("agent_id", "label");

-- CreateIndex
CREATE INDEX "runs_graph_name_label_idx" ON "runs"("graph_name", "label");
