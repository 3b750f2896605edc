// The dashboard's side of the derived rows' lag (components/runs/derived-lag.tsx):
// its rollups are written just after the ledger's transaction, so an answer can
// miss the newest writes; it says how many and reads again until they count.
import type { DeriveLag } from "@/lib/db/derive-lag";
import type { MetricsDashboard } from "@/lib/metrics/schemas";
import { CATCH_UP_REFETCH_MS, derivedLagText, LagNote } from "@/components/runs/derived-lag";

/** How long until the dashboard reads again: every second while ledger writes are not counted yet, else `steadyMs`. */
export function metricsRefetchMs(answer: MetricsDashboard | undefined, steadyMs: number): number {
  return answer && answer.derived.queued > 0 ? CATCH_UP_REFETCH_MS : steadyMs;
}

/** "Counting the last 3 ledger writes (0.4 s behind)…" while the rollups trail the ledger; nothing once caught up. */
export function DerivedLagNote({ lag }: { lag: DeriveLag }) {
  return <LagNote text={lag.queued > 0 ? derivedLagText(lag) : null} testId="derived-lag" />;
}
