"use client";
// A plan node's child run, opened inline under the DAG: the same waterfall and
// span details the run page shows, over the child run's spans (the same query
// the run page uses for a sub-run opened inline, so they share the cache).
import { useCallback, useMemo, useState } from "react";
import { useQueries } from "@tanstack/react-query";
import type { TraceSpanView } from "@/lib/runs/schemas";
import { indexSpans, type SpanIndex, type TimelineRow } from "@/lib/runs/timeline";
import { spansFromRows, type SpanRowPage } from "@/lib/runs/span-rows";
import { getJson } from "@/lib/http/client";
import { Waterfall } from "@/components/trace/waterfall";
import { SpanDetails } from "@/components/trace/span-details";

const NO_MARKERS: never[] = [];

function toggle(set: ReadonlySet<string>, value: string): Set<string> {
  const next = new Set(set);
  if (next.has(value)) next.delete(value);
  else next.add(value);
  return next;
}

function subRunQuery(id: string) {
  return {
    queryKey: ["sub-run-spans", id],
    queryFn: async () => ({ spans: spansFromRows(await getJson<SpanRowPage>(`/api/runs/${encodeURIComponent(id)}/spans?limit=50000`)) }),
    refetchInterval: (q: { state: { data?: { spans: TraceSpanView[] } } }) => (q.state.data?.spans.some((s) => s.status === "running") ? 2000 : false),
  };
}

export function PlanNodeTrace({ runId, agent }: { runId: string; agent: string }) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [zoom, setZoom] = useState<[number, number]>([0, 1]);
  const [selected, setSelected] = useState<{ key: string; runId: string; spanId: string } | null>(null);
  const runIds = useMemo(() => [runId, ...[...expanded].filter((id) => id !== runId)], [runId, expanded]);
  const queries = useQueries({ queries: runIds.map(subRunQuery) });
  const version = queries.map((q) => q.dataUpdatedAt).join(",");
  const { indexes, allSpans, loading } = useMemo(() => {
    const map = new Map<string, SpanIndex>();
    let all: TraceSpanView[] = [];
    const waiting = new Set<string>();
    queries.forEach((q, i) => {
      const id = runIds[i];
      if (!id) return;
      if (q.data) {
        map.set(id, indexSpans(q.data.spans));
        all = all.concat(q.data.spans);
      } else waiting.add(id);
    });
    return { indexes: map, allSpans: all, loading: waiting };
    // `version` says when any query's data changed; the query array itself is new every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version, runIds]);
  const state = useMemo(() => ({ collapsed, expandedSubRuns: expanded, foldedAgents: new Set<string>(), search: "" }), [collapsed, expanded]);
  const onToggleCollapse = useCallback((key: string) => setCollapsed((c) => toggle(c, key)), []);
  const onToggleSubRun = useCallback((id: string) => setExpanded((c) => toggle(c, id)), []);
  const onSelect = useCallback((row: TimelineRow) => setSelected({ key: row.key, runId: row.span.runId, spanId: row.span.id }), []);
  const error = queries[0]?.error;

  if (error) return <p className="text-sm text-red-600">{error.message}</p>;
  if (!indexes.has(runId)) return <p className="text-sm text-zinc-500">Loading the node&apos;s trace…</p>;
  return (
    <div className="grid gap-3 xl:grid-cols-[minmax(0,1fr)_26rem]" data-testid="plan-node-trace" data-run={runId}>
      <Waterfall
        rootRunId={runId}
        rootAgent={agent}
        indexes={indexes}
        allSpans={allSpans}
        state={state}
        onToggleCollapse={onToggleCollapse}
        onToggleSubRun={onToggleSubRun}
        selectedKey={selected?.key ?? null}
        onSelect={onSelect}
        markers={NO_MARKERS}
        zoom={zoom}
        onZoom={setZoom}
        loadingSubRuns={loading}
        height={360}
      />
      {selected ? (
        <SpanDetails key={selected.key} runId={selected.runId} spanId={selected.spanId} onClose={() => setSelected(null)} onZoomTo={() => setZoom([0, 1])} />
      ) : (
        <p className="text-sm text-zinc-500">Select a span of this node to see its details.</p>
      )}
    </div>
  );
}
