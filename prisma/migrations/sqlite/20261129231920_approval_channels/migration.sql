-- CreateTable
CREATE TABLE "approval_messages" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "approval_id" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "target" TEXT NOT NULL DEFAULT '',
    "external_ref" TEXT,
    "sent_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "slack_user_links" (
    "slack_user_id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL,
    "created_by_id" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "approval_messages_approval_id_channel_kind_key" ON "approval_messages"("approval_id", "channel", "kind");

-- CreateIndex
CREATE INDEX "slack_user_links_user_id_idx" ON "slack_user_links"("user_id");
