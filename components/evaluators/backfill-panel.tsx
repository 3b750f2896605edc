"use client";
// "Backfill…" for one evaluator: a range (yesterday by default, in the user's
// zone) whose ended runs it scores, each once (a run already scored keeps its
// score), and the evaluator's backfills with their progress, read again while
// one is running.
import { useState, useTransition } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Badge } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";
import { startEvaluatorBackfillAction } from "@/lib/actions/start-evaluator-backfill";
import { listEvaluatorBackfillsAction } from "@/lib/actions/evaluator-reads";
import { localInputToIso } from "@/lib/runs/time-range";
import { yesterdayInputs } from "@/lib/online-eval/draft";
import { formatCount } from "@/lib/format/figures";
import type { BackfillView, EvaluatorView } from "@/lib/online-eval/schemas";
import type { ErrorBody } from "@/lib/errors";

const RUNNING_POLL_MS = 1_500;

function describe(error: ErrorBody): string {
  return error.issues?.length ? `${error.message}: ${error.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}` : error.message;
}

const TONE: Record<BackfillView["status"], "info" | "success" | "danger"> = { running: "info", done: "success", failed: "danger" };

export function BackfillList({ evaluator }: { evaluator: EvaluatorView }) {
  const query = useQuery({
    queryKey: ["evaluator-backfills", evaluator.id],
    queryFn: async () => {
      const result = await listEvaluatorBackfillsAction({ id: evaluator.id });
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    refetchInterval: (q) => (q.state.data?.some((b) => b.status === "running") ? RUNNING_POLL_MS : false),
  });
  const backfills = query.data ?? [];
  if (query.error) return <p className="text-xs text-red-700">{query.error.message}</p>;
  if (!backfills.length) return null;
  return (
    <ul className="space-y-1 text-xs" aria-label={`Backfills of ${evaluator.name}`}>
      {backfills.map((b) => (
        <li key={b.id} className="flex flex-wrap items-center gap-2" data-testid="backfill">
          <Badge tone={TONE[b.status]}>
            <span data-testid="backfill-status">{b.status}</span>
          </Badge>
          <span className="text-zinc-600">
            <DateTime value={b.from} /> → <DateTime value={b.to} />
          </span>
          <span className="tabular-nums" data-testid="backfill-claimed">
            {formatCount(b.claimed)} run{b.claimed === 1 ? "" : "s"} claimed
          </span>
        </li>
      ))}
    </ul>
  );
}

export function BackfillDialog({ evaluator, onStarted }: { evaluator: EvaluatorView; onStarted: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const [range, setRange] = useState(() => yesterdayInputs(new Date()));
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const queryClient = useQueryClient();

  function start() {
    setError(null);
    startTransition(async () => {
      const result = await startEvaluatorBackfillAction({ id: evaluator.id, from: localInputToIso(range.from), to: localInputToIso(range.to) });
      if (!result.ok) return setError(describe(result.error));
      setOpen(false);
      // The list reads again now, and keeps reading while the new backfill runs.
      await queryClient.invalidateQueries({ queryKey: ["evaluator-backfills", evaluator.id] });
      onStarted(`${evaluator.name}: backfill ${result.data.id} started.`);
    });
  }

  return (
    <div className="relative inline-block">
      <Button
        type="button"
        variant="secondary"
        aria-expanded={open}
        onClick={() => {
          setOpen(!open);
          setRange(yesterdayInputs(new Date()));
        }}
      >
        Backfill…
      </Button>
      {open ? (
        <div role="dialog" aria-label={`Backfill ${evaluator.name}`} className="absolute right-0 z-30 mt-1 w-[22rem] max-w-[90vw] space-y-2 rounded-md border border-zinc-200 bg-white p-3 text-sm shadow-lg">
          <p className="text-zinc-600">Score the runs of {evaluator.graph} that ended in this range (each run once; at most 31 days).</p>
          <label className="block">
            <span className="mb-1 block text-xs font-medium text-zinc-700">From</span>
            <Input type="datetime-local" aria-label="Backfill from" value={range.from} onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))} />
          </label>
          <label className="block">
            <span className="mb-1 block text-xs font-medium text-zinc-700">To</span>
            <Input type="datetime-local" aria-label="Backfill to" value={range.to} onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))} />
          </label>
          {error ? (
            <p className="text-xs text-red-700" role="alert">
              {error}
            </p>
          ) : null}
          <div className="flex gap-2">
            <Button type="button" disabled={pending} onClick={start}>
              Start backfill
            </Button>
            <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
