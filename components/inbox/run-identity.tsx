"use client";
// Whose call is this? Two identical calls read the same in their tool and
// arguments; what tells them apart is the run: its graph and version, its
// task, who started it, its id — and, for a sub-run, the path from its root.
import Link from "next/link";
import { graphLabel, shortRunId, starterLabel } from "@/lib/inbox/identity";
import type { InboxItem } from "@/lib/inbox/schemas";

export function RunIdentityLine({ item }: { item: InboxItem }) {
  const runHref = `/runs/${encodeURIComponent(item.runId)}?approval=${encodeURIComponent(item.id)}`;
  return (
    <div className="space-y-1">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 rounded-md bg-zinc-50 px-3 py-2 text-xs text-zinc-700" data-testid="approval-identity">
        <dt className="text-zinc-500">graph</dt>
        <dd data-testid="approval-graph">{graphLabel(item.identity)}</dd>
        <dt className="text-zinc-500">task</dt>
        <dd className="truncate font-medium text-zinc-900" data-testid="approval-task" title={item.identity?.task}>
          {item.identity?.task || "—"}
        </dd>
        <dt className="text-zinc-500">started by</dt>
        <dd data-testid="approval-starter">{starterLabel(item.identity)}</dd>
        <dt className="text-zinc-500">run</dt>
        <dd>
          <Link href={runHref} className="font-mono underline decoration-dotted hover:text-zinc-900" title={item.runId} data-testid="approval-run-link">
            {shortRunId(item.runId)}
          </Link>
        </dd>
      </dl>
      {item.chain.length > 1 && (
        <nav aria-label="Parent chain" className="flex flex-wrap items-center gap-1 text-xs text-zinc-600" data-testid="approval-chain">
          <span className="text-zinc-500">path from the root:</span>
          {item.chain.map((link, i) => (
            <span key={link.runId} className="flex items-center gap-1">
              {i > 0 && <span aria-hidden>›</span>}
              <Link href={`/runs/${encodeURIComponent(link.runId)}${i === item.chain.length - 1 ? `?approval=${item.id}` : ""}`} className="underline decoration-dotted hover:text-zinc-900" title={link.runId}>
                {link.agentName}
              </Link>
            </span>
          ))}
        </nav>
      )}
    </div>
  );
}
