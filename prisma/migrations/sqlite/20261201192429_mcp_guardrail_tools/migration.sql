-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_mcp_servers" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "transport" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "allow_tools" TEXT NOT NULL DEFAULT '[]',
    "guardrail_tools" TEXT NOT NULL DEFAULT '[]',
    "secrets" TEXT,
    "secret_names" TEXT NOT NULL DEFAULT '[]',
    "receives_run_context" BOOLEAN NOT NULL DEFAULT false,
    "created_by_id" TEXT,
    "updated_by_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_mcp_servers" ("allow_tools", "config", "created_at", "created_by_id", "description", "id", "name", "receives_run_context", "secret_names", "secrets", "transport", "updated_at", "updated_by_id") SELECT "allow_tools", "config", "created_at", "created_by_id", "description", "id", "name", "receives_run_context", "secret_names", "secrets", "transport", "updated_at", "updated_by_id" FROM "mcp_servers";
DROP TABLE "mcp_servers";
ALTER TABLE "new_mcp_servers" RENAME TO "mcp_servers";
CREATE UNIQUE INDEX "mcp_servers_name_key" ON "mcp_servers"("name");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
