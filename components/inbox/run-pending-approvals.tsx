"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import type { InboxItem } from "@/lib/inbox/schemas";
import { getJson } from "@/lib/http/client";
import { PendingApprovalCard } from "./pending-approval-card";
import { DecidedResult, type RunLiveSignal } from "./decided-result";
import { isBudgetApproval } from "@/lib/contract/budget-approval";
import { isSpendLimitApproval } from "@/lib/contract/spend-limit-approval";
import { isPlanApproval } from "@/lib/contract/plan-approval";

/**
 * The pending calls of one run, decidable in place: drop it into the run page
 * with `canDecide = can(user.role, "approvals:decide")`. Refreshes every second
 * while something is pending, every five otherwise. A call decided here stays
 * as a card with its result after the decision (what was done), for as long as
 * the page shows this section. With `live` (the run page's stream: the last
 * ledger seq it announced, and whether it is connected) it reads again when
 * the run's ledger moves instead of polling, and polls only while the stream is down.
 */
export function RunPendingApprovals({ runId, canDecide, live }: { runId: string; canDecide: boolean; live?: RunLiveSignal }) {
  const [status, setStatus] = useState<string | null>(null);
  const [decided, setDecided] = useState<InboxItem[]>([]);
  const query = useQuery({
    queryKey: ["inbox", "run", runId, live?.seq ?? 0],
    queryFn: () => getJson<{ approvals: InboxItem[]; serverTime: string }>(`/api/runs/${encodeURIComponent(runId)}/approvals`, { what: "pending approvals" }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (live?.streaming ? false : (q.state.data?.approvals.length ?? 0) > 0 ? 1_000 : 5_000),
  });
  const approvals = query.data?.approvals ?? [];
  if (approvals.length === 0 && !status && decided.length === 0) return null;
  const skew = query.data ? Date.parse(query.data.serverTime) - query.dataUpdatedAt : 0;
  return (
    <section aria-label="Pending approvals" className="space-y-2">
      {status && <Alert tone="success">{status}</Alert>}
      {approvals.map((item) => (
        <PendingApprovalCard
          key={item.id}
          item={item}
          canDecide={canDecide}
          clockSkewMs={skew}
          onDecided={(text) => {
            setStatus(text);
            // A tool call keeps a card with its result after the decision; a grant of tokens or a plan has none.
            if (!isBudgetApproval(item) && !isPlanApproval(item) && !isSpendLimitApproval(item)) setDecided((current) => [item, ...current.filter((d) => d.id !== item.id)]);
          }}
        />
      ))}
      {decided
        .filter((item) => !approvals.some((a) => a.id === item.id))
        .map((item) => (
          <article key={item.id} data-testid="decided-card" data-decided-approval-id={item.id} className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3">
            <p className="font-mono text-sm font-semibold">{item.toolName}</p>
            <DecidedResult runId={item.runId} approvalId={item.id} live={item.runId === runId ? live : undefined} />
          </article>
        ))}
    </section>
  );
}
