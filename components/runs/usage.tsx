import { formatCost } from "@/lib/runs/pricing";
import type { UsageCost } from "@/lib/runs/schemas";

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function tokenCount(u: UsageCost): number {
  return u.tokens.inputTokens + u.tokens.outputTokens;
}

/** "1,234 tok · $0.01" — tokens always, cost when every model involved has a price. */
export function UsageText({ usage }: { usage: UsageCost }) {
  return (
    <span title={`${usage.tokens.inputTokens.toLocaleString("en-US")} in, ${usage.tokens.outputTokens.toLocaleString("en-US")} out`}>
      {tokenCount(usage).toLocaleString("en-US")} tok · {formatCost(usage.cost)}
    </span>
  );
}

export function UsageCell({ self, total }: { self: UsageCost; total: UsageCost }) {
  const same = tokenCount(self) === tokenCount(total);
  return (
    <span className="whitespace-nowrap text-zinc-700">
      <UsageText usage={self} />
      {same ? null : (
        <span className="text-zinc-500">
          {" "}
          / <UsageText usage={total} />
        </span>
      )}
    </span>
  );
}
