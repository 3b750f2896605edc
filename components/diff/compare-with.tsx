"use client";
// The run page's "Compare with…": offers the run's forks (and the run it was
// forked from) first, then recent runs of the same graph, or any run id typed
// in; each leads to /runs/compare?a=<this run>&b=<the other>.
import { useState, type FormEvent } from "react";
import Link from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { StatusBadge } from "@/components/runs/status-badge";
import { getJson } from "@/lib/http/client";
import { DateTime } from "@/components/ui/date-time";
import type { CompareCandidate, CompareCandidates } from "@/lib/runs/diff/schemas";

export const compareHref = (a: string, b: string) => `/runs/compare?${new URLSearchParams({ a, b }).toString()}`;

function CandidateList({ runId, title, runs }: { runId: string; title: string; runs: CompareCandidate[] }) {
  if (runs.length === 0) return null;
  return (
    <div>
      <p className="px-2 pb-1 text-[11px] font-semibold uppercase tracking-wide text-zinc-500">{title}</p>
      <ul>
        {runs.map((run) => (
          <li key={run.runId}>
            <Link href={compareHref(runId, run.runId)} data-testid="compare-candidate" className="flex items-center gap-2 rounded px-2 py-1 text-xs hover:bg-zinc-100">
              <StatusBadge status={run.status} />
              <span className="min-w-0 flex-1 truncate" title={run.task}>
                {run.forkOfRunId === runId ? "fork · " : run.forkOfRunId === null ? "" : "fork of another run · "}
                {run.task}
              </span>
              <DateTime value={run.startedAt} className="whitespace-nowrap text-zinc-500" />
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function CompareWith({ runId }: { runId: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [candidates, setCandidates] = useState<CompareCandidates | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [other, setOther] = useState("");

  async function toggle() {
    const next = !open;
    setOpen(next);
    if (!next) return;
    setError(null);
    try {
      setCandidates(await getJson<CompareCandidates>(`/api/runs/compare/candidates?${new URLSearchParams({ run: runId }).toString()}`, { what: "the runs to compare with" }));
    } catch (e) {
      setError(e instanceof Error ? e.message : "Could not load the runs to compare with");
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (other.trim()) router.push(compareHref(runId, other.trim()));
  }

  return (
    <div className="relative">
      <Button type="button" variant="secondary" onClick={() => void toggle()} aria-expanded={open} data-testid="compare-with">
        Compare with…
      </Button>
      {open ? (
        <div role="dialog" aria-label="Compare with another run" className="absolute right-0 z-20 mt-1 w-[28rem] max-w-[90vw] space-y-2 rounded-md border border-zinc-200 bg-white p-2 shadow-lg">
          {error ? <p className="px-2 text-xs text-red-700">{error}</p> : null}
          {candidates === null && !error ? <p className="px-2 text-xs text-zinc-500">Loading…</p> : null}
          {candidates ? (
            <>
              <CandidateList runId={runId} title="Forks and origin" runs={candidates.related} />
              <CandidateList runId={runId} title={`Recent runs of ${candidates.graphName ?? "this agent"}`} runs={candidates.recent} />
              {candidates.related.length + candidates.recent.length === 0 ? <p className="px-2 text-xs text-zinc-500">No other run of this graph yet.</p> : null}
            </>
          ) : null}
          <form onSubmit={submit} className="flex gap-2 border-t border-zinc-100 px-2 pt-2">
            <Input value={other} onChange={(e) => setOther(e.target.value)} placeholder="or any run id" aria-label="Run id to compare with" className="flex-1 font-mono text-xs" />
            <Button type="submit" variant="secondary" disabled={!other.trim()}>
              Compare
            </Button>
          </form>
        </div>
      ) : null}
    </div>
  );
}
