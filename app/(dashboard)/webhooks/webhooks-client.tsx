"use client";
// The webhooks page: every inbound endpoint with its URL, what it runs and its
// recent deliveries (outcome, status, reason, run); for builders and admins,
// create (the secret shown once, with a copy button), rotate the secret,
// disable / enable and delete. Viewers see the same list without controls.
import { useState, useTransition } from "react";
import Link from "@/components/ui/link";
import { useRouter } from "next/navigation";
import type { WebhookDeliveryView, WebhookView, WebhookWithSecret } from "@/lib/webhooks/schemas";
import { createWebhookAction } from "@/lib/actions/create-webhook";
import { updateWebhookAction } from "@/lib/actions/update-webhook";
import { rotateWebhookSecretAction } from "@/lib/actions/rotate-webhook-secret";
import { deleteWebhookAction } from "@/lib/actions/delete-webhook";
import type { ErrorBody } from "@/lib/errors";
import { Alert } from "@/components/ui/alert";
import { DeliveryOutcomeBadge } from "@/components/triggers/outcome-badges";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { DateTime } from "@/components/ui/date-time";

type Result<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };

function describeError(error: ErrorBody): string {
  return error.issues?.length ? `${error.message}: ${error.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}` : error.message;
}

/** The secret of a create or a rotation, shown this once. */
function SecretOnce({ shown, onDone }: { shown: { name: string; secret: string }; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <Alert tone="success">
      <div className="space-y-2" data-testid="webhook-secret-once">
        <p>
          The signing secret of <strong>{shown.name}</strong>. Copy it now: it is not shown again.
        </p>
        <code className="block break-all rounded bg-white px-2 py-1 font-mono text-xs text-zinc-900" data-testid="webhook-secret">
          {shown.secret}
        </code>
        <div className="flex gap-2">
          <Button
            variant="secondary"
            onClick={() => {
              void navigator.clipboard?.writeText(shown.secret).then(() => setCopied(true), () => setCopied(false));
            }}
          >
            {copied ? "Copied" : "Copy secret"}
          </Button>
          <Button variant="ghost" onClick={onDone}>
            Done
          </Button>
        </div>
      </div>
    </Alert>
  );
}

function Deliveries({ deliveries }: { deliveries: WebhookDeliveryView[] }) {
  if (!deliveries.length) return <p className="text-xs text-zinc-500">No deliveries yet.</p>;
  return (
    <table className="min-w-full text-xs" aria-label="Deliveries">
      <thead className="text-left text-zinc-500">
        <tr>
          <th className="py-1 pr-3">Received</th>
          <th className="py-1 pr-3">Outcome</th>
          <th className="py-1 pr-3">Status</th>
          <th className="py-1 pr-3">Reason</th>
          <th className="py-1 pr-3">Run</th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((d) => (
          <tr key={d.id} data-testid="webhook-delivery" data-outcome={d.outcome}>
            <td className="py-1 pr-3 text-zinc-600">
              <DateTime value={d.receivedAt} />
            </td>
            <td className="py-1 pr-3">
              <DeliveryOutcomeBadge outcome={d.outcome} />
            </td>
            <td className="py-1 pr-3 text-zinc-600">{d.httpStatus}</td>
            <td className="py-1 pr-3 text-zinc-700" data-testid="webhook-delivery-reason">
              {d.reason ?? ""}
            </td>
            <td className="py-1 pr-3">
              {d.runId ? (
                <Link className="text-indigo-700 hover:underline" href={`/runs/${encodeURIComponent(d.runId)}`}>
                  {d.runId}
                </Link>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function WebhooksPage({
  webhooks,
  deliveries,
  graphs,
  origin,
  canManage,
  preset,
}: {
  webhooks: WebhookView[];
  deliveries: Record<string, WebhookDeliveryView[]>;
  graphs: string[];
  origin: string;
  canManage: boolean;
  /** `?graph=<name>` (a graph's Triggers tab): the graph a new endpoint starts with; `&new=1` opens the form. */
  preset?: { graph: string; open: boolean };
}) {
  const router = useRouter();
  const [creating, setCreating] = useState(() => canManage && preset?.open === true);
  const [name, setName] = useState("");
  const [graph, setGraph] = useState(preset?.graph ?? graphs[0] ?? "");
  const [shown, setShown] = useState<{ name: string; secret: string } | null>(null);
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();

  /** Runs an action; says what happened, and refreshes the list on success. */
  function act<T>(run: () => Promise<Result<T>>, success: (data: T) => string | null, after?: (data: T) => void) {
    startTransition(async () => {
      const result = await run();
      if (!result.ok) {
        setMessage({ tone: "error", text: describeError(result.error) });
        return;
      }
      const text = success(result.data);
      setMessage(text ? { tone: "success", text } : null);
      after?.(result.data);
      router.refresh();
    });
  }

  const showSecret = (data: WebhookWithSecret) => setShown({ name: data.webhook.name, secret: data.secret });

  function remove(w: WebhookView) {
    if (!window.confirm(`Delete the webhook "${w.name}" and its deliveries? Its runs stay.`)) return;
    act(() => deleteWebhookAction({ id: w.id }), () => `${w.name} is deleted.`);
  }

  return (
    <div className="space-y-6">
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      {shown ? <SecretOnce shown={shown} onDone={() => setShown(null)} /> : null}
      <Card>
        <CardHeader
          title="Endpoints"
          action={
            <div className="flex gap-2">
              <Button variant="secondary" onClick={() => router.refresh()}>
                Refresh
              </Button>
              {canManage && !creating ? <Button onClick={() => setCreating(true)}>New webhook</Button> : null}
            </div>
          }
        />
        {creating ? (
          <form
            aria-label="New webhook"
            className="flex flex-wrap items-end gap-3 border-b border-zinc-100 px-5 py-4"
            onSubmit={(e) => {
              e.preventDefault();
              act(
                () => createWebhookAction({ name, graph }),
                () => null,
                (data) => {
                  showSecret(data);
                  setCreating(false);
                  setName("");
                },
              );
            }}
          >
            <label className="flex flex-col text-xs text-zinc-600">
              Name
              <Input aria-label="Webhook name" value={name} onChange={(e) => setName(e.target.value)} />
            </label>
            <label className="flex flex-col text-xs text-zinc-600">
              Agent
              <select aria-label="Webhook agent" className="rounded-md border border-zinc-300 px-2 py-1.5 text-sm" value={graph} onChange={(e) => setGraph(e.target.value)}>
                {graphs.map((g) => (
                  <option key={g}>{g}</option>
                ))}
              </select>
            </label>
            <p className="max-w-sm text-xs text-zinc-500">
              Deliveries send <code>{'{ "task": "…", "context": { … } }'}</code> and run the agent&apos;s default version as you.
            </p>
            <Button type="submit" disabled={pending}>
              Create webhook
            </Button>
            <Button type="button" variant="ghost" onClick={() => setCreating(false)}>
              Cancel
            </Button>
          </form>
        ) : null}
        {webhooks.length === 0 ? <p className="px-5 py-4 text-sm text-zinc-500">No webhooks yet.</p> : null}
        <ul className="divide-y divide-zinc-100">
          {webhooks.map((w) => (
            <li key={w.id} id={w.id} className="space-y-3 px-5 py-4 target:bg-amber-50" data-testid={`webhook-${w.id}`} aria-label={`Webhook ${w.name}`}>
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="space-y-1">
                  <p className="font-medium text-zinc-900">
                    {w.name} {w.enabled ? null : <Badge tone="warning">disabled</Badge>}
                  </p>
                  <p className="text-xs text-zinc-600">
                    {w.graph} · {w.version === null ? "default version" : `v${w.version}`} · {w.mapping.kind === "task" ? "task and context from the body" : `template: ${w.mapping.template}`} · {w.rateLimitPerMinute}/min · owner {w.owner.email ?? w.owner.id}
                  </p>
                  <code className="block break-all text-xs text-zinc-800" data-testid="webhook-url">
                    {origin}
                    {w.path}
                  </code>
                </div>
                {canManage ? (
                  <div className="flex flex-wrap gap-2">
                    <Button variant="secondary" disabled={pending} onClick={() => act(() => rotateWebhookSecretAction({ id: w.id }), () => null, showSecret)}>
                      Rotate secret
                    </Button>
                    <Button variant="secondary" disabled={pending} onClick={() => act(() => updateWebhookAction({ id: w.id, patch: { enabled: !w.enabled } }), (v) => `${v.name} is ${v.enabled ? "enabled" : "disabled"}.`)}>
                      {w.enabled ? "Disable" : "Enable"}
                    </Button>
                    <Button variant="danger" disabled={pending} onClick={() => remove(w)}>
                      Delete
                    </Button>
                  </div>
                ) : null}
              </div>
              <Deliveries deliveries={deliveries[w.id] ?? []} />
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
