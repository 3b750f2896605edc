-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_run_facets" (
    "root_run_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "at" DATETIME NOT NULL,

    PRIMARY KEY ("root_run_id", "kind", "value")
);
INSERT INTO "new_run_facets" ("kind", "root_run_id", "value") SELECT "kind", "root_run_id", "value" FROM "run_facets";
DROP TABLE "run_facets";
ALTER TABLE "new_run_facets" RENAME TO "run_facets";
CREATE INDEX "run_facets_kind_value_at_idx" ON "run_facets"("kind", "value", "at");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
