"use client";
// Whose call is this? Two identical calls read the same in their tool and
// arguments; what tells them apart is the run: its graph and version, its
// task, who started it, its id — and, for a sub-run, the path from its root.
// A fork's call carries its origin's task: the card says what it is a fork of
// and which steps someone wrote instead of recorded, so it never reads as an
// ordinary run of the saved version.
import Link from "@/components/ui/link";
import { forkEditsLabel, forkLabel, graphLabel, shortRunId, starterLabel } from "@/lib/inbox/identity";
import type { InboxItem } from "@/lib/inbox/schemas";

export function RunIdentityLine({ item }: { item: InboxItem }) {
  const runHref = `/runs/${encodeURIComponent(item.runId)}?approval=${encodeURIComponent(item.id)}`;
  const fork = item.identity?.fork;
  return (
    <div className="space-y-1">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 rounded-md bg-zinc-50 px-3 py-2 text-xs text-zinc-700" data-testid="approval-identity">
        <dt className="text-zinc-500">graph</dt>
        <dd data-testid="approval-graph">{graphLabel(item.identity)}</dd>
        {fork ? (
          <>
            <dt className="text-zinc-500">fork</dt>
            <dd data-testid="approval-fork">
              <Link href={`/runs/${encodeURIComponent(fork.originRunId)}`} className="underline decoration-dotted hover:text-zinc-900" title={fork.originRunId}>
                {forkLabel(fork)}
              </Link>
            </dd>
            {fork.edits.length ? (
              <>
                <dt className="text-amber-800">edited</dt>
                <dd data-testid="approval-edited" className="text-amber-900">
                  {forkEditsLabel(fork)}
                </dd>
              </>
            ) : null}
          </>
        ) : null}
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
