// One limit's spend against its amount: a bar, the figures, and the usage no
// price covers said apart (its cost is unknown: it is not counted, never shown as $0).
import { formatCost, formatCount } from "@/lib/format/figures";
import { SPEND_SCOPE_LABELS, type SpendLimitView } from "@/lib/spend-limits/schemas";
import { Badge } from "@/components/ui/badge";

const PERIOD_LABELS = { day: "today (UTC)", month: "this month (UTC)" } as const;

export function SpendBar({ limit }: { limit: SpendLimitView }) {
  const share = limit.amountUsd > 0 ? Math.min(1, limit.spend.pricedUsd / limit.amountUsd) : 1;
  const name = limit.scope === "workspace" ? "Workspace" : `${SPEND_SCOPE_LABELS[limit.scope]} ${limit.scopeLabel}`;
  return (
    <div data-testid="spend-limit" className="space-y-1">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className="font-medium text-zinc-800">
          {name} <span className="font-normal text-zinc-500">· {PERIOD_LABELS[limit.period]}</span>
        </span>
        <span className="flex items-center gap-2 tabular-nums">
          <span data-testid="spend-figures">
            {formatCost(limit.spend.pricedUsd)} of {formatCost(limit.amountUsd)}
          </span>
          {limit.reached ? <Badge tone="danger">limit reached: new runs refused</Badge> : null}
        </span>
      </div>
      <div className="h-2 overflow-hidden rounded bg-zinc-100" role="meter" aria-label={`${name} spend`} aria-valuemin={0} aria-valuemax={limit.amountUsd} aria-valuenow={limit.spend.pricedUsd}>
        <div className={limit.reached ? "h-full bg-red-500" : share >= 0.8 ? "h-full bg-amber-500" : "h-full bg-emerald-500"} style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
      {limit.spend.unpricedTokens > 0 ? (
        <p className="text-xs text-amber-700" data-testid="spend-unpriced">
          Plus {formatCount(limit.spend.unpricedTokens)} tokens on unpriced models ({limit.spend.unpricedModels.join(", ")}): their cost is unknown and not counted toward the limit.
        </p>
      ) : null}
    </div>
  );
}
