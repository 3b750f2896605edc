"use client";
// The spend limits page: every limit with its spend in the current window; a
// form to set one (admins every scope, builders a graph's) and a remove button
// per limit the reader may change. Viewers see the list without controls.
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import {
  SPEND_ON_REACHED,
  SPEND_ON_REACHED_LABELS,
  SPEND_PERIODS,
  SPEND_SCOPE_LABELS,
  SPEND_SCOPES,
  type SetSpendLimitInput,
  type SpendLimitView,
  type SpendOnReached,
  type SpendPeriod,
  type SpendScope,
  type SpendTargets,
} from "@/lib/spend-limits/schemas";
import { setSpendLimitAction } from "@/lib/actions/set-spend-limit";
import { removeSpendLimitAction } from "@/lib/actions/remove-spend-limit";
import type { ErrorBody } from "@/lib/errors";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Input, Select } from "@/components/ui/input";
import { EmptyState } from "@/components/ui/empty-state";
import { SpendBar } from "@/components/spend-limits/spend-bar";

type Result<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };

function describeError(error: ErrorBody): string {
  return error.issues?.length ? `${error.message}: ${error.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}` : error.message;
}

function inputOf(scope: SpendScope, scopeId: string, period: SpendPeriod, amount: string, onReached: SpendOnReached): SetSpendLimitInput | { error: string } {
  const amountUsd = Number(amount);
  if (amount.trim() === "" || !Number.isFinite(amountUsd)) return { error: "Give the limit in US dollars" };
  if (scope === "workspace") return { scope, period, amountUsd, onReached };
  if (!scopeId) return { error: `Choose the ${SPEND_SCOPE_LABELS[scope].toLowerCase()} to limit` };
  return { scope, scopeId, period, amountUsd, onReached };
}

/** The same limit with another `onReached` (setting a scope's limit for a period replaces it). */
function withOnReached(limit: SpendLimitView, onReached: SpendOnReached): SetSpendLimitInput {
  const { period, amountUsd } = limit;
  if (limit.scope === "workspace") return { scope: "workspace", period, amountUsd, onReached };
  return { scope: limit.scope, scopeId: limit.scopeId, period, amountUsd, onReached };
}

export function SpendLimitsPage({ limits, targets, canManage, isAdmin }: { limits: SpendLimitView[]; targets: SpendTargets; canManage: boolean; isAdmin: boolean }) {
  const router = useRouter();
  const scopes: readonly SpendScope[] = isAdmin ? SPEND_SCOPES : ["graph"];
  const [scope, setScope] = useState<SpendScope>(scopes[0] ?? "graph");
  const [scopeId, setScopeId] = useState("");
  const [period, setPeriod] = useState<SpendPeriod>("day");
  const [amount, setAmount] = useState("");
  const [onReached, setOnReached] = useState<SpendOnReached>("ask");
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();

  function act<T>(run: () => Promise<Result<T>>, success: (data: T) => string) {
    startTransition(async () => {
      const result = await run();
      if (!result.ok) {
        setMessage({ tone: "error", text: describeError(result.error) });
        return;
      }
      setMessage({ tone: "success", text: success(result.data) });
      router.refresh();
    });
  }

  function save() {
    const input = inputOf(scope, scopeId, period, amount, onReached);
    if ("error" in input) {
      setMessage({ tone: "error", text: input.error });
      return;
    }
    act(
      () => setSpendLimitAction(input),
      (limit) => `The ${limit.period === "day" ? "daily" : "monthly"} limit of ${limit.scope === "workspace" ? "the workspace" : limit.scopeLabel} is saved.`,
    );
  }

  const options: { value: string; label: string }[] =
    scope === "graph" ? targets.graphs.map((g) => ({ value: g, label: g })) : scope === "user" ? targets.users.map((u) => ({ value: u.id, label: u.email })) : scope === "api_key" ? targets.apiKeys.map((k) => ({ value: k.id, label: `${k.name} (${k.owner})` })) : [];

  return (
    <div className="space-y-6">
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      {canManage ? (
        <Card>
          <CardHeader title="Set a limit" description={isAdmin ? "Setting a scope's limit for a period replaces the one it had." : "Builders set the limits of graphs; admins set the workspace's, users' and API keys'."} />
          <CardBody>
            <form
              aria-label="Set a spend limit"
              className="flex flex-wrap items-end gap-3"
              onSubmit={(e) => {
                e.preventDefault();
                save();
              }}
            >
              <label className="flex flex-col text-xs text-zinc-600">
                Scope
                <Select
                  aria-label="Scope"
                  value={scope}
                  onChange={(e) => {
                    setScope(e.target.value as SpendScope);
                    setScopeId("");
                  }}
                >
                  {scopes.map((s) => (
                    <option key={s} value={s}>
                      {SPEND_SCOPE_LABELS[s]}
                    </option>
                  ))}
                </Select>
              </label>
              {scope === "workspace" ? null : (
                <label className="flex flex-col text-xs text-zinc-600">
                  {SPEND_SCOPE_LABELS[scope]}
                  <Select aria-label={SPEND_SCOPE_LABELS[scope]} value={scopeId} onChange={(e) => setScopeId(e.target.value)}>
                    <option value="">Choose…</option>
                    {options.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </Select>
                </label>
              )}
              <label className="flex flex-col text-xs text-zinc-600">
                Period
                <Select aria-label="Period" value={period} onChange={(e) => setPeriod(e.target.value as SpendPeriod)}>
                  {SPEND_PERIODS.map((p) => (
                    <option key={p} value={p}>
                      {p === "day" ? "Per day (UTC)" : "Per month (UTC)"}
                    </option>
                  ))}
                </Select>
              </label>
              <label className="flex flex-col text-xs text-zinc-600">
                Limit (US$)
                <Input aria-label="Limit in US dollars" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} placeholder="25" />
              </label>
              <label className="flex flex-col text-xs text-zinc-600">
                Running runs, once reached
                <Select aria-label="Running runs, once reached" value={onReached} onChange={(e) => setOnReached(e.target.value as SpendOnReached)}>
                  {SPEND_ON_REACHED.map((o) => (
                    <option key={o} value={o}>
                      {SPEND_ON_REACHED_LABELS[o]}
                    </option>
                  ))}
                </Select>
              </label>
              <Button type="submit" disabled={pending}>
                Save limit
              </Button>
            </form>
          </CardBody>
        </Card>
      ) : null}
      <Card>
        <CardHeader title="Limits" description="Spend in the current UTC day or month, priced by the price book at the time of each call." />
        <CardBody>
          {limits.length === 0 ? (
            <EmptyState title="No spend limits">Runs start whatever they have spent.</EmptyState>
          ) : (
            <ul className="space-y-4">
              {limits.map((limit) => (
                <li key={limit.id} className="flex items-start gap-3">
                  <div className="min-w-0 flex-1">
                    <SpendBar limit={limit} />
                  </div>
                  {isAdmin || (canManage && limit.scope === "graph") ? (
                    <Select
                      aria-label={`Running runs once the ${limit.period === "day" ? "daily" : "monthly"} limit of ${limit.scopeLabel} is reached`}
                      value={limit.onReached}
                      disabled={pending}
                      onChange={(e) => {
                        const next = e.target.value as SpendOnReached;
                        act(() => setSpendLimitAction(withOnReached(limit, next)), () => `Running runs of ${limit.scope === "workspace" ? "the workspace" : limit.scopeLabel}: ${SPEND_ON_REACHED_LABELS[next].toLowerCase()} once the limit is reached.`);
                      }}
                    >
                      {SPEND_ON_REACHED.map((o) => (
                        <option key={o} value={o}>
                          {SPEND_ON_REACHED_LABELS[o]}
                        </option>
                      ))}
                    </Select>
                  ) : (
                    <span className="text-xs text-zinc-600" data-testid="spend-limit-on-reached">
                      {SPEND_ON_REACHED_LABELS[limit.onReached]}
                    </span>
                  )}
                  {isAdmin || (canManage && limit.scope === "graph") ? (
                    <Button type="button" variant="ghost" disabled={pending} aria-label={`Remove the ${limit.period === "day" ? "daily" : "monthly"} limit of ${limit.scopeLabel}`} onClick={() => act(() => removeSpendLimitAction({ id: limit.id }), () => "The limit is removed.")}>
                      Remove
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </CardBody>
      </Card>
    </div>
  );
}
