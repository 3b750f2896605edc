// GET /api/audit/verify – checks the audit log's hash chain (admins only):
//   { verified, rows, unchained, broken: { seq, id, problem } | null, head, mode, from, hashed }.
// Incremental by default (only rows after the last verified checkpoint are
// hashed); `?full=1` verifies every row from scratch and resets the checkpoint.
import { NextResponse } from "next/server";
import { z } from "zod";
import { apiRoute, parseQuery } from "@/lib/http/server/api-route";
import { getDb } from "@/lib/db/server/db";
import { verifyAuditChain } from "@/lib/audit/verify";

const querySchema = z.object({ full: z.enum(["0", "1", "true", "false"]).optional() });

export const GET = apiRoute({
  permission: "audit:verify",
  handler: async ({ request }) => {
    const { full } = parseQuery(request, querySchema);
    return NextResponse.json(await verifyAuditChain(getDb(), { full: full === "1" || full === "true" }));
  },
});
