"use client";
import Link from "next/link";
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

function RunLink({ label, run }: { label: string; run: ComparedRun }) {
  return (
    <div className="min-w-0 rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm" data-testid={`compare-run-${label.toLowerCase()}`}>
      <div className="flex items-center gap-2">
        <span className="font-semibold text-zinc-900">Run {label}</span>
        <StatusBadge status={run.status} />
        <Link href={`/runs/${encodeURIComponent(run.runId)}`} className="truncate font-mono text-xs text-indigo-600 hover:underline">
          {run.runId}
        </Link>
      </div>
      <p className="mt-1 text-xs text-zinc-600" data-testid="compare-run-version">
        {graphVersionLabel({ graphName: run.graphName, ...run.graphVersion })}
      </p>
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
          <RunLink label="A" run={comparison.a} />
          <RunLink label="B" run={comparison.b} />
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
