// GET /api/health – database and Temporal reachability (200 when both are ok, else 503).
//   Without a session or API key (a load balancer, `npm start`): `{ status }` only.
//   With one that may read: the whole report (namespace, task queue and its
//   pollers, export counts, derive lag), as the overview page shows it.
import { NextResponse, type NextRequest } from "next/server";
import { checkHealth, checkLiveness } from "@/lib/health/server/health";
import { checkUser, getSessionUser } from "@/lib/auth/server/session";
import { authenticateApiKey, bearerToken } from "@/lib/auth/server/api-keys";

export const dynamic = "force-dynamic";

/**
 * Whether the caller may read the whole report: a key or a session that may
 * "read" (the same checks as every API route). A refused key or no session is
 * not an error here — the route is public — it just gets the short answer.
 */
async function mayReadReport(request: NextRequest): Promise<boolean> {
  try {
    const token = bearerToken(request.headers);
    const user = token !== null ? await authenticateApiKey(token) : await getSessionUser();
    if (!user) return false;
    checkUser(user, "read");
    return true;
  } catch {
    return false;
  }
}

export async function GET(request: NextRequest) {
  const report = (await mayReadReport(request)) ? await checkHealth() : await checkLiveness();
  return NextResponse.json(report, { status: report.status === "ok" ? 200 : 503, headers: { "cache-control": "no-store" } });
}
