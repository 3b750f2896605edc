// GET /api/health – database and Temporal reachability (public; 200 when both are ok, else 503).
import { NextResponse } from "next/server";
import { checkHealth } from "@/lib/health/server/health";

export const dynamic = "force-dynamic";

export async function GET() {
  const report = await checkHealth();
  return NextResponse.json(report, { status: report.status === "ok" ? 200 : 503, headers: { "cache-control": "no-store" } });
}
