// GET /api/approvals/count – how many approvals wait (the run ledger's counts; the navigation badge).
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/server/api-route";
import { getEngine } from "@/lib/engine/server/engine";
import { pendingCount } from "@/lib/inbox/server/inbox";

export const GET = apiRoute({
  permission: "read",
  handler: async () => NextResponse.json({ count: await pendingCount(getEngine()) }),
});
