import Link from "@/components/ui/link";
import { spendLimitRequestSentence } from "@/lib/contract/spend-limit-approval";
import type { InboxItem } from "@/lib/inbox/schemas";

/** What a run paused at a spend limit asks for, in place of a tool call's arguments. */
export function SpendLimitRequestSummary({ item }: { item: InboxItem }) {
  return (
    <div className="space-y-1 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm" data-testid="approval-spend-limit">
      <p className="font-medium text-amber-900">{spendLimitRequestSentence(item)}</p>
      <p className="text-amber-800">
        Raise the limit on <Link href="/spend-limits" className="underline">Spend limits</Link>, then approve to let the run go on (it asks again while the limit is still reached); rejecting stops the run with spend_limit_reached.
      </p>
    </div>
  );
}
