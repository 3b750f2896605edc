-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "archived_at" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "agent_versions" ADD COLUMN     "restored_from" INTEGER;

-- CreateIndex
CREATE INDEX "agent_versions_created_by_id_idx" ON "agent_versions"("created_by_id");

-- AddForeignKey
ALTER TABLE "agent_versions" ADD CONSTRAINT "agent_versions_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
