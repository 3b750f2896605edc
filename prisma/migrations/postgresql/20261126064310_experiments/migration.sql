-- CreateTable
CREATE TABLE "experiments" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "dataset_id" TEXT NOT NULL,
    "dataset_name" TEXT NOT NULL,
    "dataset_version" INTEGER NOT NULL,
    "targets" TEXT NOT NULL,
    "scorers" TEXT NOT NULL,
    "thresholds" TEXT NOT NULL DEFAULT '{}',
    "settings" TEXT NOT NULL DEFAULT '{}',
    "concurrency" INTEGER NOT NULL DEFAULT 4,
    "status" TEXT NOT NULL DEFAULT 'running',
    "total" INTEGER NOT NULL,
    "created_by_id" TEXT,
    "created_by" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "experiments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "experiment_results" (
    "id" TEXT NOT NULL,
    "experiment_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "item_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "target_index" INTEGER NOT NULL,
    "task" TEXT NOT NULL,
    "tags" TEXT NOT NULL DEFAULT '[]',
    "run_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "scores" TEXT NOT NULL DEFAULT '[]',
    "error" TEXT,
    "latency_ms" INTEGER NOT NULL DEFAULT 0,
    "input_tokens" INTEGER NOT NULL DEFAULT 0,
    "output_tokens" INTEGER NOT NULL DEFAULT 0,
    "cost_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "experiment_results_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "experiments_created_at_idx" ON "experiments"("created_at");

-- CreateIndex
CREATE INDEX "experiment_results_experiment_id_status_idx" ON "experiment_results"("experiment_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "experiment_results_experiment_id_item_id_target_index_key" ON "experiment_results"("experiment_id", "item_id", "target_index");

-- CreateIndex
CREATE UNIQUE INDEX "experiment_results_experiment_id_seq_key" ON "experiment_results"("experiment_id", "seq");

-- AddForeignKey
ALTER TABLE "experiment_results" ADD CONSTRAINT "experiment_results_experiment_id_fkey" FOREIGN KEY ("experiment_id") REFERENCES "experiments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
