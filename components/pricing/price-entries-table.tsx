import type { ModelPriceEntry } from "@/lib/pricing/schemas";
import type { PriceSource } from "@/lib/pricing/price-book";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DateTime } from "@/components/ui/date-time";

const SOURCE: Record<PriceSource, { label: string; tone: "neutral" | "info" | "success" }> = {
  default: { label: "default", tone: "neutral" },
  env: { label: "ZAP_MODEL_PRICES", tone: "info" },
  admin: { label: "admin", tone: "success" },
};

/** "$2.5", or what a null rate falls back to. */
const rate = (value: number | null, fallback: string) => (value === null ? <span className="text-zinc-500">{fallback}</span> : `$${value}`);

/**
 * Every price of every model, by model then time; the price in effect now is
 * marked. `onRemove` (admins) removes an admin's price.
 */
export function PriceEntriesTable({ entries, now, onRemove, pending }: { entries: ModelPriceEntry[]; now: string; onRemove?: (entry: ModelPriceEntry) => void; pending?: boolean }) {
  const current = new Map<string, ModelPriceEntry>();
  for (const e of entries) if (e.effectiveFrom <= now) current.set(e.model, e);
  return (
    <table className="w-full text-sm" data-testid="price-table">
      <thead>
        <tr className="text-left text-zinc-600">
          <th className="py-1">Model</th>
          <th>From</th>
          <th>Input</th>
          <th>Output</th>
          <th>Cached read</th>
          <th>Cached write</th>
          <th>Reasoning</th>
          <th>Source</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => {
          const inEffect = current.get(e.model) === e;
          return (
            <tr key={`${e.model} ${e.effectiveFrom}`} className="border-t border-zinc-100" data-testid="price-row" data-model={e.model}>
              <td className="break-all py-2 font-mono">{e.model}</td>
              <td>{e.source === "admin" ? <DateTime value={e.effectiveFrom} /> : "always"}</td>
              <td>{rate(e.input, "")}</td>
              <td>{rate(e.output, "")}</td>
              <td>{rate(e.cachedRead, "= input")}</td>
              <td>{rate(e.cachedWrite, "= input")}</td>
              <td>{rate(e.reasoning, "= output")}</td>
              <td className="space-x-1" title={e.setBy ? `Set by ${e.setBy}` : undefined}>
                <Badge tone={SOURCE[e.source].tone}>{SOURCE[e.source].label}</Badge>
                {inEffect && <Badge tone="success">in effect</Badge>}
                {e.effectiveFrom > now && <Badge tone="warning">scheduled</Badge>}
              </td>
              <td className="text-right">
                {onRemove && e.id && (
                  <Button variant="secondary" disabled={pending} onClick={() => onRemove(e)} aria-label={`Remove the price of ${e.model} from ${e.effectiveFrom}`}>
                    Remove
                  </Button>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
