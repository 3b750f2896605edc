// GET /api/approvals/audit?tool=&agent=&person=&outcome=&from=&to=[&format=csv] –
// decisions, endorsements and expiries, newest first; CSV for export.
import { NextResponse } from "next/server";
import { apiRoute, parseQuery } from "@/lib/http/server/api-route";
import { getDb } from "@/lib/db/server/db";
import { auditFilterSchema } from "@/lib/inbox/schemas";
import { auditCsv, listAudit } from "@/lib/inbox/server/audit";

export const GET = apiRoute({
  permission: "read",
  handler: async ({ request }) => {
    const filter = parseQuery(request, auditFilterSchema);
    const rows = await listAudit(getDb(), filter);
    if (request.nextUrl.searchParams.get("format") !== "csv") return NextResponse.json({ rows });
    return new Response(auditCsv(rows), {
      headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="approval-audit-${new Date().toISOString().slice(0, 10)}.csv"` },
    });
  },
});
