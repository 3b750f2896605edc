"use client";
// The run header's fork links: "Fork of <run> at <step>" with "Compare with
// origin", and the list of this run's own forks.
import Link from "@/components/ui/link";
import { useQuery } from "@tanstack/react-query";
import { getForkLinksAction } from "@/lib/actions/get-fork-links";
import { DateTime } from "@/components/ui/date-time";

const runHref = (runId: string) => `/runs/${encodeURIComponent(runId)}`;

export function ForkLinks({ runId }: { runId: string }) {
  const links = useQuery({
    queryKey: ["fork-links", runId],
    queryFn: async () => {
      const result = await getForkLinksAction({ runId });
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
  });
  const data = links.data;
  if (!data || (!data.origin && data.forks.length === 0)) return null;
  const { origin } = data;
  return (
    <div className="space-y-1 text-xs text-zinc-600">
      {origin ? (
        <p data-testid="fork-of">
          Fork of{" "}
          <Link href={runHref(origin.runId)} className="font-mono text-indigo-600 hover:underline">
            {origin.runId}
          </Link>
          {origin.spanId ? ` at ${origin.spanName ?? origin.spanId} (${origin.spanId})` : ""}
          {" · "}
          <Link href={`/runs/compare?a=${encodeURIComponent(origin.rootRunId ?? origin.runId)}&b=${encodeURIComponent(runId)}`} className="text-indigo-600 hover:underline">
            Compare with origin
          </Link>
        </p>
      ) : null}
      {data.forks.length ? (
        <details data-testid="forks-of-run">
          <summary className="cursor-pointer">{data.forks.length === 1 ? "1 fork of this run" : `${data.forks.length} forks of this run`}</summary>
          <ul className="mt-1 space-y-0.5">
            {data.forks.map((fork) => (
              <li key={fork.runId}>
                <Link href={runHref(fork.runId)} className="font-mono text-indigo-600 hover:underline">
                  {fork.runId}
                </Link>{" "}
                {fork.spanId ? `at ${fork.spanId}${fork.inRun ? ` of ${fork.inRun}` : ""}` : ""} · {fork.status} · <DateTime value={fork.startedAt} />
                {fork.startedBy ? ` · ${fork.startedBy}` : ""}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
