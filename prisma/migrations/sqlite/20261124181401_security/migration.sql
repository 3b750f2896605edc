-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN "hash" TEXT;
ALTER TABLE "audit_events" ADD COLUMN "prev_hash" TEXT;
ALTER TABLE "audit_events" ADD COLUMN "seq" INTEGER;

-- CreateTable
CREATE TABLE "audit_chain_head" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "seq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "mcp_servers" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "transport" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "allow_tools" TEXT NOT NULL DEFAULT '[]',
    "secrets" TEXT,
    "secret_names" TEXT NOT NULL DEFAULT '[]',
    "receives_run_context" BOOLEAN NOT NULL DEFAULT false,
    "created_by_id" TEXT,
    "updated_by_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "workspace_policy" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "data" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "updated_by_id" TEXT,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "rate_limits" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "points" INTEGER NOT NULL,
    "expire" DATETIME
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_users" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'viewer',
    "password_hash" TEXT,
    "last_sign_in_at" DATETIME,
    "disabled_at" DATETIME,
    "sessions_valid_after" DATETIME,
    "must_change_password" BOOLEAN NOT NULL DEFAULT false,
    "is_demo" BOOLEAN NOT NULL DEFAULT false,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_users" ("created_at", "email", "id", "last_sign_in_at", "name", "password_hash", "role", "updated_at") SELECT "created_at", "email", "id", "last_sign_in_at", "name", "password_hash", "role", "updated_at" FROM "users";
DROP TABLE "users";
ALTER TABLE "new_users" RENAME TO "users";
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "mcp_servers_name_key" ON "mcp_servers"("name");

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_seq_key" ON "audit_events"("seq");

-- Audit rows are append-only: nothing may update or delete them (tampering is also detectable through the hash chain).
CREATE TRIGGER "audit_events_no_update" BEFORE UPDATE ON "audit_events" BEGIN SELECT RAISE(ABORT, 'audit_events is append-only'); END;
CREATE TRIGGER "audit_events_no_delete" BEFORE DELETE ON "audit_events" BEGIN SELECT RAISE(ABORT, 'audit_events is append-only'); END;

-- The audit hash chain starts here (seq 0, the genesis hash); lib/audit/write.ts extends it.
INSERT INTO "audit_chain_head" ("id", "seq", "hash") VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');
