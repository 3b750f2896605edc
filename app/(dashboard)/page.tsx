import { Suspense } from "react";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { checkHealth } from "@/lib/health/server/health";
import { getConfig } from "@/lib/config/server/config";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { ActiveAlerts } from "@/components/monitors/active-alerts";
import { monitors } from "@/lib/monitors/server/web";
import type { AlertView } from "@/lib/monitors/schemas";
import { SpendCard } from "@/components/spend-limits/spend-card";
import { listSpendLimits } from "@/lib/spend-limits/server/store";
import { getDb } from "@/lib/db/server/db";
import { SmokeCheck } from "./smoke-check-client";
import { drawsOwnLabels, labelledSearch, readDashboardUrl } from "@/components/dashboard/dashboard-url";
import { metricsDashboard } from "@/lib/metrics/server/dashboard";
import { DashboardClient, type InitialMetrics } from "./dashboard-client";

export const dynamic = "force-dynamic";

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * The figures for the URL being rendered, read here so the first HTML has them
 * (the client then refreshes through GET /api/metrics with the same query
 * strings). A bad URL reads nothing: the client names the bad values.
 */
async function initialMetrics(searchParams: SearchParams): Promise<InitialMetrics> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(searchParams)) for (const v of Array.isArray(value) ? value : [value ?? ""]) params.append(key, v);
  const state = readDashboardUrl(params);
  if (!state.ok) return {};
  const searches = drawsOwnLabels(state.query) ? [state.search, labelledSearch(state.search)] : [state.search];
  const answers = await Promise.all(searches.map((search) => metricsDashboard(Object.fromEntries(new URLSearchParams(search)))));
  const initial: InitialMetrics = {};
  searches.forEach((search, i) => {
    const answer = answers[i];
    if (answer) initial[search] = answer;
  });
  return initial;
}

/** The alerts firing now, for the first HTML: the banner is there from the first paint, not pushed in after it. */
async function firingAlerts(): Promise<{ alerts: AlertView[]; readAt: number }> {
  const alerts = await monitors.alerts({ state: "firing" });
  return { alerts, readAt: Date.now() };
}

export default async function OverviewPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePageUser();
  const [health, initial, limits, firing] = await Promise.all([
    checkHealth(),
    searchParams.then(initialMetrics),
    listSpendLimits(getDb()),
    firingAlerts(),
  ]);
  const config = getConfig();
  return (
    <>
      <PageHeader title="Overview" description={`How your agents are doing, ${user.name.split(" ")[0]}: runs, latency, cost, approvals and the orchestration modes' health. Click a bar for the runs behind it.`} />
      <div className="mb-6">
        <ActiveAlerts initial={firing} />
      </div>
      {/* useSearchParams (the view lives in the URL) needs a Suspense boundary for the server render. */}
      <Suspense fallback={<p className="text-sm text-zinc-500">Loading the dashboard…</p>}>
        <DashboardClient initial={initial} />
      </Suspense>
      <h2 className="mb-3 mt-10 text-sm font-semibold uppercase tracking-wide text-zinc-500">Spend</h2>
      <SpendCard limits={limits} />
      <h2 className="mb-3 mt-10 text-sm font-semibold uppercase tracking-wide text-zinc-500">System</h2>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader
            title="System status"
            description="What this dashboard depends on."
            action={<Badge tone={health.status === "ok" ? "success" : "danger"}>{health.status}</Badge>}
          />
          <CardBody>
            <dl className="space-y-3 text-sm" data-testid="system-status">
              <div className="flex items-center justify-between">
                <dt className="text-zinc-600">Database ({health.database.provider})</dt>
                <dd>
                  <Badge tone={health.database.ok ? "success" : "danger"}>{health.database.ok ? `ok · ${health.database.latencyMs} ms` : "unreachable"}</Badge>
                </dd>
              </div>
              <div className="flex items-center justify-between">
                <dt className="text-zinc-600">Temporal ({config.temporal.address}, {health.temporal.namespace})</dt>
                <dd>
                  <Badge tone={health.temporal.ok ? "success" : "danger"}>{health.temporal.ok ? `ok · ${health.temporal.latencyMs} ms` : "unreachable"}</Badge>
                </dd>
              </div>
              <div className="flex items-center justify-between">
                <dt className="text-zinc-600">Workers on “{health.workers.taskQueue}”</dt>
                <dd>
                  <Badge tone={health.workers.pollers > 0 ? "success" : "warning"}>
                    {health.workers.pollers > 0 ? `${health.workers.pollers} polling` : "none polling: runs will wait"}
                  </Badge>
                </dd>
              </div>
              <div className="flex items-center justify-between">
                <dt className="text-zinc-600">Temporal Web UI</dt>
                <dd>
                  <a className="font-medium text-indigo-600 hover:underline" href={config.temporal.uiUrl} target="_blank" rel="noreferrer">
                    Open ↗
                  </a>
                </dd>
              </div>
            </dl>
          </CardBody>
        </Card>
        <Card>
          <CardHeader title="End-to-end check" description="Runs a small workflow: this page → server action → Temporal → worker → database." />
          <CardBody>
            {can(user.role, "runs:launch") ? (
              <SmokeCheck defaultName={user.name.split(" ")[0] ?? "there"} />
            ) : (
              <p className="text-sm text-zinc-600" data-testid="smoke-not-allowed">
                Running workflows needs the builder or admin role; you are signed in as a {user.role}.
              </p>
            )}
          </CardBody>
        </Card>
      </div>
    </>
  );
}
