// GET /api/approvals – every pending approval across runs and sub-runs, oldest first,
// with its parent chain, the message that made the call, tokens and the tool's schema.
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/server/api-route";
import { getEngine } from "@/lib/engine/server/engine";
import { getDb } from "@/lib/db/server/db";
import { loadInbox } from "@/lib/inbox/server/inbox";

export const GET = apiRoute({
  permission: "read",
  handler: async () => {
    const { items, serverTime } = await loadInbox(getEngine(), getDb());
    return NextResponse.json({ approvals: items, serverTime });
  },
});
