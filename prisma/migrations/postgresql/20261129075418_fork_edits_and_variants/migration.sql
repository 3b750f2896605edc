-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "fork_edit" TEXT,
ADD COLUMN     "variant_of_version_id" TEXT;
