-- CreateTable
CREATE TABLE "online_evaluators" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "graph" TEXT NOT NULL,
    "version" INTEGER,
    "label" TEXT,
    "filters" TEXT NOT NULL DEFAULT '{}',
    "target" TEXT NOT NULL DEFAULT 'run',
    "checks" TEXT NOT NULL,
    "expectations" TEXT NOT NULL DEFAULT '{}',
    "sampling_rate" REAL NOT NULL DEFAULT 1,
    "daily_spend_cap_usd" REAL,
    "delay_seconds" INTEGER NOT NULL DEFAULT 0,
    "dataset_rule" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "active_from" DATETIME NOT NULL,
    "created_by_id" TEXT,
    "updated_by_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "online_evaluations" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "evaluator_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "graph" TEXT NOT NULL,
    "version" INTEGER,
    "label" TEXT,
    "status" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'live',
    "mean_score" REAL,
    "cost_usd" REAL NOT NULL DEFAULT 0,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "run_ended_at" DATETIME NOT NULL,
    "claimed_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "evaluated_at" DATETIME,
    CONSTRAINT "online_evaluations_evaluator_id_fkey" FOREIGN KEY ("evaluator_id") REFERENCES "online_evaluators" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "online_evaluation_scores" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "evaluation_id" TEXT NOT NULL,
    "evaluator_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "scorer" TEXT NOT NULL,
    "value" REAL NOT NULL,
    "pass" BOOLEAN,
    "detail" TEXT NOT NULL DEFAULT '',
    "cost_usd" REAL NOT NULL DEFAULT 0,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "online_evaluation_scores_evaluation_id_fkey" FOREIGN KEY ("evaluation_id") REFERENCES "online_evaluations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "online_evaluation_backfills" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "evaluator_id" TEXT NOT NULL,
    "range_from" DATETIME NOT NULL,
    "range_to" DATETIME NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "claimed" INTEGER NOT NULL DEFAULT 0,
    "cursor_ended_at" DATETIME,
    "cursor_run_id" TEXT,
    "error" TEXT,
    "requested_by_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" DATETIME,
    CONSTRAINT "online_evaluation_backfills_evaluator_id_fkey" FOREIGN KEY ("evaluator_id") REFERENCES "online_evaluators" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "online_evaluators_name_key" ON "online_evaluators"("name");

-- CreateIndex
CREATE INDEX "online_evaluators_graph_idx" ON "online_evaluators"("graph");

-- CreateIndex
CREATE INDEX "online_evaluations_status_claimed_at_idx" ON "online_evaluations"("status", "claimed_at");

-- CreateIndex
CREATE INDEX "online_evaluations_evaluator_id_evaluated_at_idx" ON "online_evaluations"("evaluator_id", "evaluated_at");

-- CreateIndex
CREATE INDEX "online_evaluations_graph_evaluated_at_idx" ON "online_evaluations"("graph", "evaluated_at");

-- CreateIndex
CREATE INDEX "online_evaluations_run_id_idx" ON "online_evaluations"("run_id");

-- CreateIndex
CREATE UNIQUE INDEX "online_evaluations_evaluator_id_run_id_key" ON "online_evaluations"("evaluator_id", "run_id");

-- CreateIndex
CREATE INDEX "online_evaluation_scores_run_id_idx" ON "online_evaluation_scores"("run_id");

-- CreateIndex
CREATE INDEX "online_evaluation_scores_evaluator_id_created_at_idx" ON "online_evaluation_scores"("evaluator_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "online_evaluation_scores_evaluation_id_scorer_key" ON "online_evaluation_scores"("evaluation_id", "scorer");

-- CreateIndex
CREATE INDEX "online_evaluation_backfills_evaluator_id_created_at_idx" ON "online_evaluation_backfills"("evaluator_id", "created_at");

-- CreateIndex
CREATE INDEX "runs_graph_name_ended_at_idx" ON "runs"("graph_name", "ended_at");
