"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { ApprovalCard, type CardMode } from "@/components/inbox/pending-approval-card";
import { DateTime } from "@/components/ui/date-time";
import type { ApprovalPageView } from "@/lib/approval-channels/server/approval-page";

/**
 * The approval a link opened: the inbox's card (its buttons send the decision
 * as the signed-in person, the run judges role and self-approval), or what
 * became of it. A "reject" link opens the card on its reason box; nothing is
 * sent until the person presses a button.
 */
export function ApprovalConfirmClient({ view, canDecide, intent }: { view: ApprovalPageView; canDecide: boolean; intent: "approve" | "reject" | null }) {
  const router = useRouter();
  const [mode, setMode] = useState<CardMode>(intent === "reject" ? "reject" : "idle");
  const [status, setStatus] = useState<string | null>(null);
  if (!view.pending) {
    return (
      <section className="space-y-2 rounded-lg border border-zinc-200 bg-white p-4" data-testid="approval-outcome">
        <p className="text-sm">
          <strong className="font-semibold">{view.toolName}</strong> is {view.status}
          {view.decidedBy ? <> by {view.decidedBy}</> : view.status === "expired" ? <> (nobody decided by the deadline: the rule&apos;s default action applied)</> : null}
          {view.decidedAt ? (
            <>
              {" "}
              at <DateTime value={view.decidedAt} />
            </>
          ) : null}
          .
        </p>
        {view.reason && <p className="text-sm text-zinc-700">Reason: {view.reason}</p>}
      </section>
    );
  }
  return (
    <div className="space-y-3">
      {intent && canDecide && (
        <p className="text-sm text-zinc-700" data-testid="approval-intent">
          You followed the {intent === "approve" ? "Approve" : "Reject"} link. Nothing is decided until you press {intent === "approve" ? "Approve" : "Reject"} below.
        </p>
      )}
      {!canDecide && <p className="text-sm text-zinc-700">Your role may read this approval but not decide it.</p>}
      <ApprovalCard
        item={view.pending}
        canDecide={canDecide}
        mode={mode}
        onModeChange={setMode}
        onDecided={(message) => {
          setStatus(message);
          router.refresh();
        }}
      />
      <p role="status" className="text-sm">
        {status}
      </p>
    </div>
  );
}
