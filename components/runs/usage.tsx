import { formatCost, formatCount } from "@/lib/format/figures";
import type { UsageCost } from "@/lib/runs/schemas";

// The product's one duration wording (lib/format/figures.ts), re-exported for the pages that read it here.
export { formatDuration } from "@/lib/format/figures";

export function tokenCount(u: UsageCost): number {
  return u.tokens.inputTokens + u.tokens.outputTokens;
}

/** "1,234 tok · $0.01" — tokens always, cost when every model involved has a price. */
export function UsageText({ usage }: { usage: UsageCost }) {
  return (
    <span title={`${formatCount(usage.tokens.inputTokens)} in, ${formatCount(usage.tokens.outputTokens)} out`}>
      {formatCount(tokenCount(usage))} tok · {formatCost(usage.cost)}
    </span>
  );
}
