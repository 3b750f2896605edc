// GET /api/audit?action=&person=&from=&to=&page=&pageSize= – every audit event
//   (all actions), newest first, paged: { rows, total, page, pageSize }. Sign-in
//   failures (emails tried, addresses) are listed to admins only.
import { NextResponse } from "next/server";
import { apiRoute, parseQuery } from "@/lib/http/server/api-route";
import { getDb } from "@/lib/db/server/db";
import { auditEventFilterSchema } from "@/lib/inbox/schemas";
import { listAuditEvents } from "@/lib/inbox/server/audit";

export const GET = apiRoute({
  permission: "read",
  handler: async ({ request, user }) => NextResponse.json(await listAuditEvents(getDb(), parseQuery(request, auditEventFilterSchema), user)),
});
