"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import type { InboxItem } from "@/lib/inbox/schemas";
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
    queryFn: async (): Promise<{ approvals: InboxItem[]; serverTime: string }> => {
      const response = await fetch(`/api/runs/${encodeURIComponent(runId)}/approvals`, { cache: "no-store" });
      if (!response.ok) throw new Error(`pending approvals could not load (${response.status})`);
      return (await response.json()) as { approvals: InboxItem[]; serverTime: string };
    },
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
