"use client";
import Link from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { useMemo, useState, type FormEvent } from "react";
import { PageHeader } from "@/components/ui/page-header";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { StatusBadge } from "@/components/runs/status-badge";
import { DiffView } from "@/components/diff/diff-view";
import type { ComparedRun } from "@/lib/runs/diff/schemas";
import { unpackComparison, type PackedComparison } from "@/lib/runs/diff/packed";
import { graphVersionLabel } from "@/lib/runs/version-label";

/** One side of the comparison, named by its graph and version (the run id whole beneath it, never cut off). */
function RunLink({ side, run }: { side: "A" | "B"; run: ComparedRun }) {
  return (
    <div className="min-w-0 rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm" data-testid={`compare-run-${side.toLowerCase()}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold text-zinc-900" data-testid="compare-run-title">
          <span className="rounded bg-zinc-100 px-1.5 text-xs text-zinc-600">{side}</span>{" "}
          <span data-testid="compare-run-version">{graphVersionLabel({ graphName: run.graphName, ...run.graphVersion })}</span>
        </span>
        <StatusBadge status={run.status} />
      </div>
      <Link href={`/runs/${encodeURIComponent(run.runId)}`} className="mt-1 block break-all font-mono text-xs text-indigo-600 hover:underline" data-testid="compare-run-id">
        {run.runId}
      </Link>
      <p className="mt-1 truncate text-xs text-zinc-600" title={run.task}>
        {run.task}
      </p>
    </div>
  );
}

function PickRuns({ a, b }: { a: string; b: string }) {
  const router = useRouter();
  const [runA, setRunA] = useState(a);
  const [runB, setRunB] = useState(b);
  function submit(event: FormEvent) {
    event.preventDefault();
    router.push(`/runs/compare?${new URLSearchParams({ a: runA.trim(), b: runB.trim() }).toString()}`);
  }
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <label className="text-xs text-zinc-600">
        Run A
        <Input value={runA} onChange={(e) => setRunA(e.target.value)} placeholder="run id" className="w-72 font-mono" />
      </label>
      <label className="text-xs text-zinc-600">
        Run B
        <Input value={runB} onChange={(e) => setRunB(e.target.value)} placeholder="run id" className="w-72 font-mono" />
      </label>
      <Button type="submit" variant="secondary" disabled={!runA.trim() || !runB.trim()}>
        Compare
      </Button>
    </form>
  );
}

export function CompareClient({ a, b, comparison: packed, error }: { a: string; b: string; comparison: PackedComparison | null; error: string | null }) {
  const comparison = useMemo(() => packed && unpackComparison(packed), [packed]);
  return (
    <div className="space-y-4">
      <PageHeader title="Compare runs" description="Two runs of one graph, step by step: what each did, where they part, what it cost." />
      {comparison ? (
        <div className="grid gap-2 md:grid-cols-2">
          <RunLink side="A" run={comparison.a} />
          <RunLink side="B" run={comparison.b} />
        </div>
      ) : (
        <PickRuns a={a} b={b} />
      )}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {/* Keyed by the pair, so another comparison starts with none of this one's loaded steps. */}
      {comparison ? <DiffView key={`${comparison.a.runId}\n${comparison.b.runId}`} comparison={comparison} /> : null}
    </div>
  );
}
