// GET /api/metrics?range=1h|24h|7d|30d|custom&from=&to=&graph=&version=&model=&tool=&startedBy=&breakdown=&series=a,b
// – the overview dashboard's charts, read from the metric rollups (lib/metrics/server/dashboard.ts); any role may read.
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/server/api-route";
import { metricsQuerySchema } from "@/lib/metrics/schemas";
import { metricsDashboard } from "@/lib/metrics/server/dashboard";
import { ValidationError, zodIssues } from "@/lib/errors";

export const GET = apiRoute({
  permission: "read",
  handler: async ({ request }) => {
    const raw = Object.fromEntries([...request.nextUrl.searchParams].filter(([, v]) => v !== ""));
    const parsed = metricsQuerySchema.safeParse(raw);
    if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues));
    return NextResponse.json(await metricsDashboard(parsed.data));
  },
});
