"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import type { InboxItem } from "@/lib/inbox/schemas";
import { getJson } from "@/lib/http/client";
import { PendingApprovalCard } from "./pending-approval-card";

/**
 * The pending calls of one run, decidable in place: drop it into the run page
 * with `canDecide = can(user.role, "approvals:decide")`. Refreshes every second
 * while something is pending, every five otherwise.
 */
export function RunPendingApprovals({ runId, canDecide }: { runId: string; canDecide: boolean }) {
  const [status, setStatus] = useState<string | null>(null);
  const query = useQuery({
    queryKey: ["inbox", "run", runId],
    queryFn: () => getJson<{ approvals: InboxItem[]; serverTime: string }>(`/api/runs/${encodeURIComponent(runId)}/approvals`, { what: "pending approvals" }),
    refetchInterval: (q) => ((q.state.data?.approvals.length ?? 0) > 0 ? 1_000 : 5_000),
  });
  const approvals = query.data?.approvals ?? [];
  if (approvals.length === 0 && !status) return null;
  const skew = query.data ? Date.parse(query.data.serverTime) - query.dataUpdatedAt : 0;
  return (
    <section aria-label="Pending approvals" className="space-y-2">
      {status && <Alert tone="success">{status}</Alert>}
      {approvals.map((item) => (
        <PendingApprovalCard key={item.id} item={item} canDecide={canDecide} clockSkewMs={skew} onDecided={setStatus} />
      ))}
    </section>
  );
}
