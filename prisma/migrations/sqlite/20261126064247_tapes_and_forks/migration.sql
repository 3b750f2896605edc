-- AlterTable
ALTER TABLE "runs" ADD COLUMN "experiment_id" TEXT;
ALTER TABLE "runs" ADD COLUMN "fork_of_run_id" TEXT;
ALTER TABLE "runs" ADD COLUMN "fork_span_id" TEXT;

-- CreateTable
CREATE TABLE "run_tapes" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "purpose" TEXT NOT NULL,
    "settings" TEXT NOT NULL,
    "entry_count" INTEGER NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "tape_entries" (
    "tape_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "path" TEXT NOT NULL DEFAULT '',
    "iteration" INTEGER NOT NULL DEFAULT -1,
    "call_id" TEXT NOT NULL DEFAULT '',
    "tool" TEXT NOT NULL DEFAULT '',
    "args_key" TEXT NOT NULL DEFAULT '',
    "data" TEXT NOT NULL,
    "claimed_by" TEXT,

    PRIMARY KEY ("tape_id", "seq")
);

-- CreateIndex
CREATE INDEX "tape_entries_tape_id_kind_path_iteration_call_id_idx" ON "tape_entries"("tape_id", "kind", "path", "iteration", "call_id");

-- CreateIndex
CREATE INDEX "tape_entries_tape_id_kind_tool_args_key_seq_idx" ON "tape_entries"("tape_id", "kind", "tool", "args_key", "seq");

-- CreateIndex
CREATE INDEX "runs_fork_of_run_id_idx" ON "runs"("fork_of_run_id");

-- CreateIndex
CREATE INDEX "runs_experiment_id_idx" ON "runs"("experiment_id");
