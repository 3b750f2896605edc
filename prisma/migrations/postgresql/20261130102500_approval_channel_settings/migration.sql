-- CreateTable
CREATE TABLE "approval_channel_settings" (
    "id" TEXT NOT NULL,
    "smtp_url" TEXT,
    "smtp_password" TEXT,
    "smtp_from" TEXT,
    "email_to" TEXT,
    "slack_signing_secret" TEXT,
    "slack_bot_token" TEXT,
    "slack_channel" TEXT,
    "slack_api_url" TEXT,
    "updated_by_id" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "approval_channel_settings_pkey" PRIMARY KEY ("id")
);
