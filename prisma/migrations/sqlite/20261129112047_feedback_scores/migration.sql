-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_feedback" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "run_id" TEXT NOT NULL,
    "root_run_id" TEXT NOT NULL,
    "span_id" TEXT NOT NULL DEFAULT '',
    "user_id" TEXT NOT NULL,
    "key" TEXT NOT NULL DEFAULT '',
    "rating" TEXT,
    "value" REAL,
    "category" TEXT,
    "comment" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_feedback" ("comment", "created_at", "id", "rating", "root_run_id", "run_id", "span_id", "updated_at", "user_id") SELECT "comment", "created_at", "id", "rating", "root_run_id", "run_id", "span_id", "updated_at", "user_id" FROM "feedback";
DROP TABLE "feedback";
ALTER TABLE "new_feedback" RENAME TO "feedback";
CREATE INDEX "feedback_root_run_id_rating_idx" ON "feedback"("root_run_id", "rating");
CREATE INDEX "feedback_rating_root_run_id_idx" ON "feedback"("rating", "root_run_id");
CREATE UNIQUE INDEX "feedback_run_id_span_id_user_id_key_key" ON "feedback"("run_id", "span_id", "user_id", "key");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
