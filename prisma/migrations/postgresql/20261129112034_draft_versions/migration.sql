-- AlterTable
ALTER TABLE "agent_versions" ADD COLUMN     "draft" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "promoted_at" TIMESTAMP(3);
