// GET /api/approvals/audit?tool=&agent=&person=&outcome=&from=&to=[&format=csv] –
// decisions, endorsements and expiries, newest first; CSV for export.
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/server/api-route";
import { getDb } from "@/lib/db/server/db";
import { ValidationError, zodIssues } from "@/lib/errors";
import { auditFilterSchema } from "@/lib/inbox/schemas";
import { auditCsv, listAudit } from "@/lib/inbox/server/audit";

export const GET = apiRoute({
  permission: "read",
  handler: async ({ request }) => {
    const params = Object.fromEntries(request.nextUrl.searchParams);
    const parsed = auditFilterSchema.safeParse(params);
    if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues));
    const rows = await listAudit(getDb(), parsed.data);
    if (params.format !== "csv") return NextResponse.json({ rows });
    return new Response(auditCsv(rows), {
      headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="approval-audit-${new Date().toISOString().slice(0, 10)}.csv"` },
    });
  },
});
