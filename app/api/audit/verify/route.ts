// GET /api/audit/verify – recomputes the audit log's hash chain end to end:
//   { verified, rows, unchained, broken: { seq, problem } | null } (any signed-in role).
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/server/api-route";
import { getDb } from "@/lib/db/server/db";
import { verifyAuditChain } from "@/lib/audit/verify";

export const GET = apiRoute({
  permission: "read",
  handler: async () => NextResponse.json(await verifyAuditChain(getDb())),
});
