import { Badge } from "@/components/ui/badge";
import type { PlanOutcome } from "@/lib/contract/plan";
import type { PlanCounts } from "@/lib/runs/schemas";
import { plural } from "@/lib/text/plural";

// Amber for partially failed: such a run's status is "completed", so this badge is the only sign that part of its plan did not run.
const TONES: Record<PlanOutcome, "success" | "warning" | "danger" | "neutral"> = { completed: "success", partially_failed: "warning", failed: "danger", cancelled: "neutral" };

/** How a run's last finished plan ended, as a badge ("partially failed"). */
export function PlanOutcomeBadge({ outcome }: { outcome: PlanOutcome }) {
  return (
    <Badge tone={TONES[outcome]} className="whitespace-nowrap">
      <span data-testid="plan-outcome-badge" data-outcome={outcome}>
        {outcome.replace("_", " ")}
      </span>
    </Badge>
  );
}

/** "1 of 3 nodes completed · 1 failed · 1 skipped": a finished plan's nodes by how they ended. */
export function planCountsText(counts: PlanCounts): string {
  const total = counts.completed + counts.failed + counts.skipped + counts.cancelled;
  const parts = [`${counts.completed} of ${plural(total, "node")} completed`];
  if (counts.failed) parts.push(`${counts.failed} failed`);
  if (counts.skipped) parts.push(`${counts.skipped} skipped`);
  if (counts.cancelled) parts.push(`${counts.cancelled} cancelled`);
  return parts.join(" · ");
}

/** The run header's plan line: the outcome's badge and, when known, its node counts. */
export function PlanOutcomeSummary({ outcome, counts }: { outcome: PlanOutcome; counts: PlanCounts | null }) {
  return (
    <span className="flex flex-wrap items-center gap-2" data-testid="run-plan-outcome">
      <PlanOutcomeBadge outcome={outcome} />
      {counts ? (
        <span className="text-xs text-zinc-600" data-testid="run-plan-counts">
          {planCountsText(counts)}
        </span>
      ) : null}
    </span>
  );
}
