-- AlterTable
ALTER TABLE "spend_limits" ADD COLUMN     "on_reached" TEXT NOT NULL DEFAULT 'ask';
