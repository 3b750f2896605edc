-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_agent_versions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agent_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "graph" TEXT NOT NULL,
    "created_by_id" TEXT,
    "note" TEXT NOT NULL DEFAULT '',
    "restored_from" INTEGER,
    "draft" BOOLEAN NOT NULL DEFAULT false,
    "promoted_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "agent_versions_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "agent_versions_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_agent_versions" ("agent_id", "created_at", "created_by_id", "graph", "id", "note", "restored_from", "version") SELECT "agent_id", "created_at", "created_by_id", "graph", "id", "note", "restored_from", "version" FROM "agent_versions";
DROP TABLE "agent_versions";
ALTER TABLE "new_agent_versions" RENAME TO "agent_versions";
CREATE INDEX "agent_versions_created_by_id_idx" ON "agent_versions"("created_by_id");
CREATE UNIQUE INDEX "agent_versions_agent_id_version_key" ON "agent_versions"("agent_id", "version");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
