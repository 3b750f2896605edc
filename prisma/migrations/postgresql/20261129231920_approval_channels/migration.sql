-- CreateTable
CREATE TABLE "approval_messages" (
    "id" TEXT NOT NULL,
    "approval_id" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "target" TEXT NOT NULL DEFAULT '',
    "external_ref" TEXT,
    "sent_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "approval_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "slack_user_links" (
    "slack_user_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "created_by_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "slack_user_links_pkey" PRIMARY KEY ("slack_user_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "approval_messages_approval_id_channel_kind_key" ON "approval_messages"("approval_id", "channel", "kind");

-- CreateIndex
CREATE INDEX "slack_user_links_user_id_idx" ON "slack_user_links"("user_id");
