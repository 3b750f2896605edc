"use client";
// Requests to change a protected version label (lib/labels), above the calls
// waiting in the inbox: which label, from which version to which, the graph's
// diff between them, who asked. An approver or admin other than the requester
// approves (the label moves) or rejects; the requester may withdraw their own.
import Link from "@/components/ui/link";
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson } from "@/lib/http/client";
import type { LabelRequestView } from "@/lib/labels/schemas";
import { cancelLabelRequestAction, decideLabelRequestAction } from "@/lib/actions/version-labels";
import { Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { DateTime } from "@/components/ui/date-time";
import { FieldChanges } from "@/components/agents/history-panel";

export const LABEL_REQUESTS_QUERY_KEY = ["label-requests", "pending"] as const;

/** "production: v3 → v4, 20 % to v5 by customerId" */
export function changeSentence(request: Pick<LabelRequestView, "label" | "fromVersion" | "change">): string {
  const from = request.fromVersion === null ? "unset" : `v${request.fromVersion}`;
  if (request.change.kind === "remove") return `${request.label}: remove (now ${from})`;
  const split = request.change.split;
  const splitText = split ? `, ${split.percent} % to v${split.version}${split.sticky === "context" ? ` by ${split.contextKey ?? "?"}` : " per conversation"}` : "";
  return `${request.label}: ${from} → v${request.change.version}${splitText}`;
}

function RequestCard({ request, canDecide, meId }: { request: LabelRequestView; canDecide: boolean; meId: string }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const own = request.requestedBy.id === meId;
  const act = useMutation({
    mutationFn: async (what: "approve" | "reject" | "cancel") => {
      const result = what === "cancel" ? await cancelLabelRequestAction({ requestId: request.id }) : await decideLabelRequestAction({ requestId: request.id, decision: what });
      if (!result.ok) throw new Error(result.error.message);
    },
    onMutate: () => setError(null),
    onError: (failure) => setError(failure.message),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: LABEL_REQUESTS_QUERY_KEY }),
  });
  return (
    <li className="space-y-2 p-3" data-testid={`label-request-${request.label}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-sm">
          <Link href={`/agents/${encodeURIComponent(request.graph)}`} className="font-medium text-indigo-700 hover:underline">
            {request.graph}
          </Link>{" "}
          <span className="font-medium" data-testid="label-request-change">
            {changeSentence(request)}
          </span>
        </p>
        <p className="text-xs text-zinc-500">
          asked by {request.requestedBy.email || request.requestedBy.id} · <DateTime value={request.requestedAt} />
        </p>
      </div>
      {request.note ? <p className="text-sm text-zinc-700">“{request.note}”</p> : null}
      {request.change.kind === "set" && request.fromVersion !== null && request.fromVersion !== request.change.version ? (
        <details open className="text-xs">
          <summary className="cursor-pointer text-zinc-600">
            What changes from v{request.fromVersion} to v{request.change.version}
          </summary>
          <FieldChanges changes={request.diff} />
        </details>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        {canDecide && !own ? (
          <>
            <Button type="button" disabled={act.isPending} onClick={() => act.mutate("approve")} aria-label={`Approve moving ${request.label} on ${request.graph}`}>
              Approve
            </Button>
            <Button type="button" variant="secondary" disabled={act.isPending} onClick={() => act.mutate("reject")} aria-label={`Reject moving ${request.label} on ${request.graph}`}>
              Reject
            </Button>
          </>
        ) : null}
        {own ? (
          <>
            <span className="text-xs text-zinc-500">Your request: another approver or admin decides it.</span>
            <Button type="button" variant="ghost" disabled={act.isPending} onClick={() => act.mutate("cancel")}>
              Withdraw
            </Button>
          </>
        ) : null}
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    </li>
  );
}

/** The pending label requests; nothing at all while there are none. */
export function LabelRequests({ canDecide, meId }: { canDecide: boolean; meId: string }) {
  const requests = useQuery({
    queryKey: LABEL_REQUESTS_QUERY_KEY,
    queryFn: () => getJson<{ requests: LabelRequestView[] }>("/api/label-requests", { what: "label requests" }),
    refetchInterval: 15_000,
  });
  const list = requests.data?.requests ?? [];
  if (!list.length && !requests.error) return null;
  return (
    <Card className="mb-4" data-testid="label-requests" aria-label="Label requests">
      <h2 className="border-b border-zinc-200 px-3 py-2 text-sm font-semibold text-zinc-900">Version labels waiting for approval</h2>
      {requests.error ? <p className="p-3 text-sm text-red-700">{requests.error.message}</p> : null}
      <ul className="divide-y divide-zinc-100">
        {list.map((request) => (
          <RequestCard key={request.id} request={request} canDecide={canDecide} meId={meId} />
        ))}
      </ul>
    </Card>
  );
}
