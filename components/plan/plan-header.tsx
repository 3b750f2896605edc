"use client";
// What the plan's canvas and its list both show above the nodes: progress,
// the proposal it is, and how it ended (with why, when it stopped early).
import { nodeDurationMs, planProgressLine, type PlanNodeView, type PlanView } from "@/lib/runs/plan-view";
import { formatDuration } from "@/components/runs/usage";
import { useNow } from "@/components/runs/use-now";

const OUTCOME_STYLE = { completed: "text-emerald-700", partially_failed: "text-amber-700", failed: "text-red-700", cancelled: "text-zinc-700" } as const;

/** A running node's duration ticks with the page clock; only running nodes subscribe to it. */
export function RunningDuration({ node }: { node: PlanNodeView }) {
  const now = useNow();
  const ms = nodeDurationMs(node, now);
  return <>{ms === null ? "—" : formatDuration(ms)}</>;
}

export function PlanHeader({ view, children }: { view: PlanView; children?: React.ReactNode }) {
  return (
    <div className="flex flex-wrap items-baseline gap-3 text-sm">
      <h2 className="font-semibold text-zinc-900">Plan</h2>
      <span className="text-zinc-600" data-testid="plan-progress">
        {planProgressLine(view)}
        {view.planAttempt > 1 ? ` · proposal ${view.planAttempt}` : ""}
      </span>
      {view.finished ? (
        <span className={`font-medium ${OUTCOME_STYLE[view.finished.outcome]}`} data-testid="plan-outcome">
          {view.finished.outcome.replace("_", " ")}
          {view.finished.reason ? <span className="font-normal text-zinc-600"> — {view.finished.reason}</span> : null}
        </span>
      ) : null}
      {children}
    </div>
  );
}
