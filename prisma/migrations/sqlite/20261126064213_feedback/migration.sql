-- CreateTable
CREATE TABLE "feedback" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "run_id" TEXT NOT NULL,
    "root_run_id" TEXT NOT NULL,
    "span_id" TEXT NOT NULL DEFAULT '',
    "user_id" TEXT NOT NULL,
    "rating" TEXT NOT NULL,
    "comment" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "feedback_root_run_id_rating_idx" ON "feedback"("root_run_id", "rating");

-- CreateIndex
CREATE INDEX "feedback_rating_root_run_id_idx" ON "feedback"("rating", "root_run_id");

-- CreateIndex
CREATE UNIQUE INDEX "feedback_run_id_span_id_user_id_key" ON "feedback"("run_id", "span_id", "user_id");
