// A graph's Triggers tab (issue 39 §1): what starts its runs besides a person
// — its schedules (state, next firing, last firing) and its inbound webhook
// endpoints (state, last delivery) — read through the same functions as the
// /schedules and /webhooks pages, with links to each item there. Builders and
// admins get "New schedule" / "New webhook" with the graph chosen; viewers see
// the lists only.
import type { Metadata } from "next";
import Link from "@/components/ui/link";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { getDb } from "@/lib/db/server/db";
import { getVersion } from "@/lib/agents/server/store";
import { AGENT_NAME_PATTERN } from "@/lib/agents/schemas";
import { AgentNotFound } from "@/lib/agents/errors";
import { describeSpec } from "@/lib/schedules/schemas";
import { schedules } from "@/lib/schedules/server/web";
import { webhooks } from "@/lib/webhooks/server/web";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardHeader } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";
import { DeliveryOutcomeBadge, ScheduleOutcomeBadge } from "@/components/triggers/outcome-badges";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ name: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `${decodeURIComponent((await params).name)} · Triggers` };
}

const LINK = "font-medium text-indigo-600 hover:underline";
const NEW = "rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500";

export default async function AgentTriggersPage({ params }: Params) {
  const user = await requirePageUser("read");
  const name = decodeURIComponent((await params).name);
  if (!AGENT_NAME_PATTERN.test(name)) notFound();
  try {
    await getVersion(getDb(), name);
  } catch (error) {
    if (error instanceof AgentNotFound) notFound();
    throw error;
  }
  const canManage = can(user.role, "runs:launch");
  const [scheduleList, webhookList] = await Promise.all([schedules.list(name), webhooks.list(name)]);
  const lastDelivery = new Map(await Promise.all(webhookList.map(async (w) => [w.id, (await webhooks.deliveries(w.id))[0] ?? null] as const)));
  const graph = encodeURIComponent(name);
  return (
    <>
      <PageHeader title={`${name} · Triggers`} description="What starts this graph's runs besides a person: schedules and signed inbound webhooks. Runs they start are linked to them (the runs list filters by schedule; the overview splits runs by how they started)." />
      <nav aria-label={`${name} views`} className="mb-6 flex gap-4 border-b border-zinc-200 text-sm">
        <Link href={`/agents/${graph}`} className="-mb-px border-b-2 border-transparent px-1 pb-2 text-zinc-600 hover:text-zinc-900">
          Designer
        </Link>
        <Link href={`/agents/${graph}/triggers`} aria-current="page" className="-mb-px border-b-2 border-indigo-600 px-1 pb-2 font-medium text-zinc-900">
          Triggers
        </Link>
      </nav>
      <div className="space-y-6">
        <Card>
          <CardHeader
            title={`Schedules (${scheduleList.length})`}
            description={
              <Link className={LINK} href={`/schedules?graph=${graph}`}>
                Manage on Schedules
              </Link>
            }
            action={
              canManage ? (
                <Link className={NEW} href={`/schedules?graph=${graph}&new=1`}>
                  New schedule
                </Link>
              ) : undefined
            }
          />
          {scheduleList.length === 0 ? (
            <p className="px-5 py-4 text-sm text-zinc-500">No schedule starts {name} yet.</p>
          ) : (
            <table className="min-w-full divide-y divide-zinc-200 text-sm" aria-label={`Schedules of ${name}`}>
              <thead className="bg-zinc-50 text-left text-xs font-semibold uppercase tracking-wide text-zinc-500">
                <tr>
                  <th className="px-4 py-3">Schedule</th>
                  <th className="px-4 py-3">When</th>
                  <th className="px-4 py-3">State</th>
                  <th className="px-4 py-3">Next</th>
                  <th className="px-4 py-3">Last firing</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100">
                {scheduleList.map((s) => (
                  <tr key={s.id} data-testid={`trigger-schedule-${s.id}`}>
                    <td className="px-4 py-3">
                      <Link className={LINK} href={`/schedules?graph=${graph}#${s.id}`}>
                        {s.name}
                      </Link>
                      <p>
                        <Link className="text-xs text-indigo-700 hover:underline" href={`/runs?scheduleId=${encodeURIComponent(s.id)}`}>
                          Its runs
                        </Link>
                      </p>
                    </td>
                    <td className="px-4 py-3 text-zinc-700">{describeSpec(s)}</td>
                    <td className="px-4 py-3">{s.paused ? <Badge tone="warning">paused</Badge> : <Badge tone="success">active</Badge>}</td>
                    <td className="px-4 py-3 text-zinc-700">{s.nextFireTimes[0] ? <DateTime value={s.nextFireTimes[0]} /> : "—"}</td>
                    <td className="px-4 py-3">
                      {s.lastOutcome ? <ScheduleOutcomeBadge outcome={s.lastOutcome} /> : <span className="text-zinc-500">not fired yet</span>}{" "}
                      {s.lastRunId ? (
                        <Link className="text-xs text-indigo-700 hover:underline" href={`/runs/${encodeURIComponent(s.lastRunId)}`}>
                          last run
                        </Link>
                      ) : null}
                      {s.lastFiredAt ? (
                        <p className="text-xs text-zinc-500">
                          <DateTime value={s.lastFiredAt} />
                        </p>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Card>
        <Card>
          <CardHeader
            title={`Webhooks (${webhookList.length})`}
            description={
              <Link className={LINK} href={`/webhooks?graph=${graph}`}>
                Manage on Webhooks
              </Link>
            }
            action={
              canManage ? (
                <Link className={NEW} href={`/webhooks?graph=${graph}&new=1`}>
                  New webhook
                </Link>
              ) : undefined
            }
          />
          {webhookList.length === 0 ? (
            <p className="px-5 py-4 text-sm text-zinc-500">No inbound webhook starts {name} yet.</p>
          ) : (
            <table className="min-w-full divide-y divide-zinc-200 text-sm" aria-label={`Webhooks of ${name}`}>
              <thead className="bg-zinc-50 text-left text-xs font-semibold uppercase tracking-wide text-zinc-500">
                <tr>
                  <th className="px-4 py-3">Endpoint</th>
                  <th className="px-4 py-3">State</th>
                  <th className="px-4 py-3">Last delivery</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100">
                {webhookList.map((w) => {
                  const last = lastDelivery.get(w.id) ?? null;
                  return (
                    <tr key={w.id} data-testid={`trigger-webhook-${w.id}`}>
                      <td className="px-4 py-3">
                        <Link className={LINK} href={`/webhooks?graph=${graph}#${w.id}`}>
                          {w.name}
                        </Link>
                        <p className="font-mono text-xs text-zinc-500">{w.path}</p>
                      </td>
                      <td className="px-4 py-3">{w.enabled ? <Badge tone="success">enabled</Badge> : <Badge tone="warning">disabled</Badge>}</td>
                      <td className="px-4 py-3">
                        {last ? (
                          <>
                            <DeliveryOutcomeBadge outcome={last.outcome} />{" "}
                            {last.runId ? (
                              <Link className="text-xs text-indigo-700 hover:underline" href={`/runs/${encodeURIComponent(last.runId)}`}>
                                its run
                              </Link>
                            ) : null}
                            <p className="text-xs text-zinc-500">
                              <DateTime value={last.receivedAt} />
                            </p>
                          </>
                        ) : (
                          <span className="text-zinc-500">none yet</span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </Card>
      </div>
    </>
  );
}
