"use client";
// The calls decided from this page a moment ago, each with what was done
// after the decision (the tool's result): a card that vanishes on approve
// must not leave the approver guessing whether anything moved.
import Link from "@/components/ui/link";
import { describeRun } from "@/lib/inbox/identity";
import type { InboxItem } from "@/lib/inbox/schemas";
import { DecidedResult } from "./decided-result";

export function DecidedHere({ items }: { items: InboxItem[] }) {
  if (!items.length) return null;
  return (
    <section aria-label="Decided here" className="space-y-2">
      <h2 className="text-sm font-semibold text-zinc-700">Decided here</h2>
      {items.map((item) => (
        <article key={item.id} data-testid="decided-card" data-decided-approval-id={item.id} className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3">
          <p className="text-xs text-zinc-700">
            <span className="font-mono font-semibold">{item.toolName}</span> —{" "}
            <Link href={`/runs/${encodeURIComponent(item.runId)}`} className="underline decoration-dotted">
              {describeRun(item)}
            </Link>
          </p>
          <DecidedResult runId={item.runId} approvalId={item.id} />
        </article>
      ))}
    </section>
  );
}
