-- CreateTable
CREATE TABLE "runs" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "root_run_id" TEXT NOT NULL,
    "parent_run_id" TEXT,
    "agent_name" TEXT NOT NULL,
    "graph_name" TEXT,
    "agent_version_id" TEXT,
    "started_by" TEXT,
    "task" TEXT NOT NULL,
    "context" TEXT NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "iteration" INTEGER NOT NULL DEFAULT 0,
    "input_tokens" INTEGER NOT NULL DEFAULT 0,
    "output_tokens" INTEGER NOT NULL DEFAULT 0,
    "pending_approvals" INTEGER NOT NULL DEFAULT 0,
    "last_event_seq" INTEGER NOT NULL DEFAULT 0,
    "message_count" INTEGER NOT NULL DEFAULT 0,
    "generation" INTEGER NOT NULL DEFAULT 0,
    "output" TEXT,
    "error_reason" TEXT,
    "error_message" TEXT,
    "started_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" DATETIME,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "run_events" (
    "run_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "at" DATETIME NOT NULL,
    "data" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,

    PRIMARY KEY ("run_id", "seq")
);

-- CreateTable
CREATE TABLE "run_spans" (
    "run_id" TEXT NOT NULL,
    "span_id" TEXT NOT NULL,
    "parent_id" TEXT,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "started_at" DATETIME NOT NULL,
    "ended_at" DATETIME,
    "data" TEXT NOT NULL DEFAULT '{}',

    PRIMARY KEY ("run_id", "span_id")
);

-- CreateTable
CREATE TABLE "run_messages" (
    "run_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "data" TEXT NOT NULL,

    PRIMARY KEY ("run_id", "index")
);

-- CreateTable
CREATE TABLE "approval_records" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "run_id" TEXT NOT NULL,
    "root_run_id" TEXT NOT NULL,
    "parent_run_id" TEXT,
    "agent_name" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "arguments" TEXT NOT NULL,
    "required_role" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "requested_at" DATETIME NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "edited_arguments" TEXT,
    "reason" TEXT,
    "decided_by_id" TEXT,
    "decided_by_email" TEXT,
    "decided_at" DATETIME
);

-- CreateTable
CREATE TABLE "payload_blobs" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "data" BLOB NOT NULL,
    "size" INTEGER NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "runs_root_run_id_idx" ON "runs"("root_run_id");

-- CreateIndex
CREATE INDEX "runs_parent_run_id_idx" ON "runs"("parent_run_id");

-- CreateIndex
CREATE INDEX "runs_started_at_idx" ON "runs"("started_at");

-- CreateIndex
CREATE INDEX "runs_status_idx" ON "runs"("status");

-- CreateIndex
CREATE INDEX "approval_records_status_requested_at_idx" ON "approval_records"("status", "requested_at");

-- CreateIndex
CREATE INDEX "approval_records_run_id_idx" ON "approval_records"("run_id");

-- CreateIndex
CREATE INDEX "approval_records_root_run_id_idx" ON "approval_records"("root_run_id");
