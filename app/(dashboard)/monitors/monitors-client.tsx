"use client";
// The monitors page: every monitor with its state (firing, ok, disabled), its
// last reading and, for builders and admins, create / edit / enable / disable /
// delete; below, the alert history with links to the runs behind each alert.
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { AlertView, MonitorView } from "@/lib/monitors/schemas";
import { MONITOR_SERIES } from "@/lib/monitors/schemas";
import { describeCondition, formatSeriesValue } from "@/lib/monitors/episode";
import { createMonitorAction } from "@/lib/actions/create-monitor";
import { updateMonitorAction } from "@/lib/actions/update-monitor";
import { deleteMonitorAction } from "@/lib/actions/delete-monitor";
import type { ErrorBody } from "@/lib/errors";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EMPTY_DRAFT, MonitorForm, draftOf, inputOf, type MonitorDraft } from "@/components/monitors/monitor-form";
import { AlertLinks, AlertValue } from "@/components/monitors/alert-line";
import { MonitorState, webhookText } from "@/components/monitors/monitor-state";
import { DateTime } from "@/components/ui/date-time";

/** A moment in the product's one format, or "—". */
function When({ iso }: { iso: string | null }) {
  return iso ? <DateTime value={iso} /> : <>—</>;
}

function describeError(error: ErrorBody): string {
  return error.issues?.length ? `${error.message}: ${error.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}` : error.message;
}

export function MonitorsPage({ monitors, alerts, canManage, webhookConfigured }: { monitors: MonitorView[]; alerts: AlertView[]; canManage: boolean; webhookConfigured: boolean }) {
  const router = useRouter();
  const [draft, setDraft] = useState<MonitorDraft | null>(null);
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();

  function save(d: MonitorDraft) {
    startTransition(async () => {
      const input = inputOf(d);
      const result = d.editing ? await updateMonitorAction({ id: d.editing, patch: input }) : await createMonitorAction(input);
      if (!result.ok) {
        setMessage({ tone: "error", text: describeError(result.error) });
        return;
      }
      setMessage({ tone: "success", text: `${result.data.name} is ${d.editing ? "saved" : "created"}.` });
      setDraft(null);
      router.refresh();
    });
  }

  function setEnabled(monitor: MonitorView, enabled: boolean) {
    startTransition(async () => {
      const result = await updateMonitorAction({ id: monitor.id, patch: { enabled } });
      setMessage(result.ok ? { tone: "success", text: `${monitor.name} is ${enabled ? "enabled" : "disabled"}.` } : { tone: "error", text: describeError(result.error) });
      router.refresh();
    });
  }

  function remove(monitor: MonitorView) {
    if (!window.confirm(`Delete the monitor "${monitor.name}"? Its alerts stay in the history.`)) return;
    startTransition(async () => {
      const result = await deleteMonitorAction({ id: monitor.id });
      setMessage(result.ok ? { tone: "success", text: `${monitor.name} is deleted.` } : { tone: "error", text: describeError(result.error) });
      router.refresh();
    });
  }

  return (
    <div className="space-y-6">
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <Card>
        <CardHeader title="Monitors" action={canManage && !draft ? <Button onClick={() => setDraft(EMPTY_DRAFT)}>New monitor</Button> : undefined} />
        {draft ? (
          <div className="border-b border-zinc-100 px-5 py-4">
            <MonitorForm draft={draft} pending={pending} onChange={(patch) => setDraft((d) => (d ? { ...d, ...patch } : d))} onSave={() => save(draft)} onCancel={() => setDraft(null)} />
          </div>
        ) : null}
        <table className="min-w-full divide-y divide-zinc-200 text-sm" aria-label="Monitors">
          <thead className="bg-zinc-50 text-left text-xs font-semibold uppercase tracking-wide text-zinc-500">
            <tr>
              <th className="px-4 py-3">Monitor</th>
              <th className="px-4 py-3">Condition</th>
              <th className="px-4 py-3">Last reading</th>
              <th className="px-4 py-3">State</th>
              {canManage ? (
                <th className="px-4 py-3">
                  <span className="sr-only">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {monitors.map((m) => (
              <tr key={m.id} id={m.id} data-testid={`monitor-row-${m.id}`} className="target:bg-amber-50">
                <td className="px-4 py-3 font-medium text-zinc-900">{m.name}</td>
                <td className="px-4 py-3 text-zinc-700">
                  {describeCondition(m, MONITOR_SERIES[m.series].label)}
                  {Object.keys(m.filters).length ? <p className="text-xs text-zinc-500">{Object.entries(m.filters).map(([k, v]) => `${k}: ${String(v)}`).join(", ")}</p> : null}
                </td>
                <td className="px-4 py-3 text-zinc-700">
                  {m.lastEvaluatedAt ? formatSeriesValue(m.series, m.lastValue) : "not evaluated yet"}
                  <p className="text-xs text-zinc-500">
                    <When iso={m.lastEvaluatedAt} />
                  </p>
                </td>
                <td className="px-4 py-3" data-testid="monitor-state">
                  <MonitorState monitor={m} />
                  {m.firing ? (
                    <p className="text-xs text-zinc-500">
                      since <When iso={m.firing.firedAt} />
                    </p>
                  ) : null}
                </td>
                {canManage ? (
                  <td className="space-x-2 whitespace-nowrap px-4 py-3 text-right">
                    <Button variant="secondary" disabled={pending} onClick={() => setEnabled(m, !m.enabled)}>
                      {m.enabled ? "Disable" : "Enable"}
                    </Button>
                    <Button variant="secondary" disabled={pending} onClick={() => setDraft(draftOf(m))}>
                      Edit
                    </Button>
                    <Button variant="secondary" disabled={pending} onClick={() => remove(m)}>
                      Delete
                    </Button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {monitors.length === 0 ? <p className="px-4 py-3 text-sm text-zinc-500">No monitor yet{canManage ? ": create one to be alerted when a series crosses a threshold." : "."}</p> : null}
      </Card>

      <Card>
        <CardHeader title="Alert history" description="Newest first: each alert fires once per episode and resolves when its series recovers." />
        <table className="min-w-full divide-y divide-zinc-200 text-sm" aria-label="Alert history">
          <thead className="bg-zinc-50 text-left text-xs font-semibold uppercase tracking-wide text-zinc-500">
            <tr>
              <th className="px-4 py-3">Monitor</th>
              <th className="px-4 py-3">Reading</th>
              <th className="px-4 py-3">Fired</th>
              <th className="px-4 py-3">Resolved</th>
              <th className="px-4 py-3">Webhook</th>
              <th className="px-4 py-3">
                <span className="sr-only">Links</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {alerts.map((a) => (
              <tr key={a.id} data-testid={`alert-row-${a.id}`}>
                <td className="px-4 py-3 font-medium text-zinc-900">
                  {a.monitorName} {a.state === "firing" ? <Badge tone="danger">firing</Badge> : <Badge>resolved</Badge>}
                </td>
                <td className="px-4 py-3 text-zinc-700">
                  <AlertValue alert={a} />
                  <p className="text-xs text-zinc-500">fired at {formatSeriesValue(a.condition.series, a.valueAtFire)}</p>
                </td>
                <td className="px-4 py-3 text-zinc-700">
                  <When iso={a.firedAt} />
                </td>
                <td className="px-4 py-3 text-zinc-700">
                  <When iso={a.resolvedAt} />
                  {a.resolvedReason && a.resolvedReason !== "recovered" ? <p className="text-xs text-zinc-500">{a.resolvedReason.replaceAll("_", " ")}</p> : null}
                </td>
                <td className="px-4 py-3 text-xs text-zinc-600" data-testid="alert-webhook">
                  {webhookText(a, webhookConfigured)}
                </td>
                <td className="px-4 py-3 text-right">
                  <AlertLinks alert={a} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {alerts.length === 0 ? <p className="px-4 py-3 text-sm text-zinc-500">No alert has fired.</p> : null}
      </Card>
    </div>
  );
}
