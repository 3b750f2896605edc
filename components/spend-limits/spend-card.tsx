// The overview's spend card: each limit's spend in its current window against
// its amount (the page reads them: lib/spend-limits/server/store.ts).
import Link from "@/components/ui/link";
import type { SpendLimitView } from "@/lib/spend-limits/schemas";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { SpendBar } from "./spend-bar";

export function SpendCard({ limits }: { limits: SpendLimitView[] }) {
  return (
    <Card data-testid="spend-card">
      <CardHeader
        title="Spend vs limits"
        description="Model spend in the current UTC day or month, against each limit. A reached limit refuses its scope's new runs."
        action={
          <Link className="text-sm font-medium text-indigo-600 hover:underline" href="/spend-limits">
            Spend limits →
          </Link>
        }
      />
      <CardBody>
        {limits.length === 0 ? (
          <p className="text-sm text-zinc-600">No spend limits are set: runs start whatever they have spent.</p>
        ) : (
          <ul className="space-y-4">
            {limits.map((limit) => (
              <li key={limit.id}>
                <SpendBar limit={limit} />
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}
