-- AlterTable
ALTER TABLE "mcp_servers" ADD COLUMN     "guardrail_tools" TEXT NOT NULL DEFAULT '[]';
