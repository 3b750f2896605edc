-- AlterTable
ALTER TABLE "runs" ADD COLUMN "fork_edit" TEXT;
ALTER TABLE "runs" ADD COLUMN "variant_of_version_id" TEXT;
