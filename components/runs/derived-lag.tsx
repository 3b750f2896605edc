// What a page that reads derived rows (the search index and facets, the metric
// rollups) says while they trail the run ledger: the deriver writes them just
// after the ledger's transaction (lib/run-ledger/deriver.ts), so for a moment a
// search or a chart can miss the newest writes. The page says so and reads
// again every CATCH_UP_REFETCH_MS until the answer no longer reports a lag.
import type { DeriveLag } from "@/lib/db/derive-lag";
import { formatDuration } from "./usage";

/** How often a page behind the ledger reads again: the deriver catches up within ~100 ms, so the next read usually has it all. */
export const CATCH_UP_REFETCH_MS = 1_000;

/** "the last 3 ledger writes (0.4 s behind)"; "the last ledger write (…)" for one. */
export function lagWords(lag: DeriveLag): string {
  const writes = lag.queued === 1 ? "the last ledger write" : `the last ${lag.queued.toLocaleString("en")} ledger writes`;
  // Under a second still reads in seconds ("0.4 s"), the unit a reader thinks of this lag in; "0.0 s" would read as none.
  const behind = lag.lagMs < 100 ? "under 0.1 s" : lag.lagMs < 1000 ? `${(lag.lagMs / 1000).toFixed(1)} s` : formatDuration(lag.lagMs);
  return `${writes} (${behind} behind)`;
}

/** The runs list's note while its search or facet filters read an index that trails the ledger. */
export function indexLagText(lag: DeriveLag): string {
  return `Indexing ${lagWords(lag)}…`;
}

/** The dashboard's note while its rollups trail the ledger. */
export function derivedLagText(lag: DeriveLag): string {
  return `Counting ${lagWords(lag)}…`;
}

/** A small muted line, announced politely to screen readers as it comes and goes; nothing when caught up. */
export function LagNote({ text, testId }: { text: string | null; testId: string }) {
  if (text === null) return null;
  return (
    <p className="text-xs text-zinc-500" role="status" data-testid={testId}>
      {text}
    </p>
  );
}

/** "Indexing the last N ledger writes…" while the runs list's answer says its index is behind; nothing otherwise. */
export function IndexLagNote({ lag }: { lag: DeriveLag | undefined }) {
  return <LagNote text={lag && lag.queued > 0 ? indexLagText(lag) : null} testId="index-lag" />;
}
