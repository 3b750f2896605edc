// GET /api/approvals – every pending approval across runs and sub-runs, oldest first.
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/server/api-route";
import { getEngine } from "@/lib/engine/server/engine";

export const GET = apiRoute({
  permission: "read",
  handler: async () => NextResponse.json({ approvals: await getEngine().listPendingApprovals() }),
});
