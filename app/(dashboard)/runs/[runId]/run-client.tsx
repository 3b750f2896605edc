"use client";
// The run page: header with actions, then the trace (waterfall + details) and
// the conversation. Live while the run works; a finished run is read from the
// ledger, so it stays browsable after restarts and after Temporal's retention.
import { useCallback, useMemo, useState } from "react";
import { useQueries } from "@tanstack/react-query";
import type { TokenUsage } from "@/lib/contract/types";
import { mergeMarkers, type MarkerEvent } from "@/lib/runs/orchestration-view";
import { handoffMarks } from "@/lib/runs/conversation-turns";
import { isTerminal, type RunHeaderData, type TraceSpanView } from "@/lib/runs/schemas";
import { indexSpans, type SpanIndex, type TimelineRow } from "@/lib/runs/timeline";
import { axisRange, timeScale } from "@/lib/runs/time-axis";
import { liveOutput, openCalls } from "@/lib/runs/live-call";
import { drawnSpans, drawnSubRunSpans, onTimeAxis, runTimes, type RunTimes } from "@/lib/runs/run-time";
import { Waterfall } from "@/components/trace/waterfall";
import { SpanDetails } from "@/components/trace/span-details";
import { useRunTail } from "@/components/trace/use-run-tail";
import { StreamEndedAlert } from "@/components/runs/stream-ended";
import { getJson } from "@/lib/http/client";
import { plural } from "@/lib/text/plural";
import { spansFromRows, type SpanRowPage } from "@/lib/runs/span-rows";
import { Conversation } from "@/components/runs/conversation";
import { conversationEdits } from "@/lib/runs/edit-marks";
import { RunPendingApprovals } from "@/components/inbox/run-pending-approvals";
import { PlanSection, type PlanData } from "@/components/plan/plan-section";
import type { ImageRef } from "@/lib/attachments/schemas";
import { RunEvaluations } from "@/components/evaluators/run-evaluations";
import { RunHeader } from "./run-header";

function toggle<T>(set: ReadonlySet<T>, value: T): Set<T> {
  const next = new Set(set);
  if (next.has(value)) next.delete(value);
  else next.add(value);
  return next;
}

export function RunClient({
  initialHeader,
  markers: initialMarkers,
  plan,
  taskImages,
  canLaunch,
  canDecide,
  canAddToDataset = false,
  pollMs,
  initialSpanId = null,
}: {
  initialHeader: RunHeaderData;
  /** Run-level moments read with the page; the live tail adds later ones. */
  markers: MarkerEvent[];
  /** Set for a plan-and-execute run: its DAG is drawn above the trace. */
  plan: PlanData | null;
  /** The images the task came with (read once: a task never changes). */
  taskImages: ImageRef[];
  canLaunch: boolean;
  /** Approvers decide this run's pending calls in place (the workflow still applies the gate). */
  canDecide: boolean;
  /** Builders add a (low-scored) run to a dataset from its evaluations card. */
  canAddToDataset?: boolean;
  pollMs: number;
  /** A span to select on arrival (the URL's ?span=, from a search result). */
  initialSpanId?: string | null;
}) {
  const runId = initialHeader.runId;
  const tail = useRunTail(runId, initialHeader, pollMs);
  const [tab, setTab] = useState<"trace" | "conversation">("trace");
  // Once the run has asked for an approval, the section stays: a call decided here keeps its card with the
  // result after the decision (the section hides itself while it has nothing to show).
  const [hadApprovals, setHadApprovals] = useState(initialHeader.pendingApprovals > 0);
  if (!hadApprovals && tail.header.pendingApprovals > 0) setHadApprovals(true);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [expandedSubRuns, setExpandedSubRuns] = useState<ReadonlySet<string>>(new Set());
  const [foldedAgents, setFoldedAgents] = useState<ReadonlySet<string>>(new Set());
  const [search, setSearch] = useState("");
  const [zoom, setZoom] = useState<[number, number]>([0, 1]);
  const [selected, setSelected] = useState<{ key: string; runId: string; spanId: string } | null>(initialSpanId ? { key: `${runId}/${initialSpanId}`, runId, spanId: initialSpanId } : null);
  const live = !isTerminal(tail.header.status);
  const markers = useMemo(() => mergeMarkers(initialMarkers, tail.markers), [initialMarkers, tail.markers]);
  const handoffs = useMemo(() => handoffMarks(markers), [markers]);
  // The approvals section reads again when the stream says the ledger moved, instead of polling.
  // Once the caller's access ended, the section stops polling too (as if streamed): every read would be refused.
  const noPoll = tail.streaming || tail.accessEnded !== null;
  const liveSignal = useMemo(() => ({ seq: tail.since, streaming: noPoll }), [tail.since, noPoll]);

  // Sub-runs load when first expanded, and keep refreshing while they run.
  const subRunIds = useMemo(() => [...expandedSubRuns], [expandedSubRuns]);
  const subRuns = useQueries({
    queries: subRunIds.map((id) => ({
      queryKey: ["sub-run-spans", id],
      queryFn: async () => {
        const page = await getJson<SpanRowPage>(`/api/runs/${encodeURIComponent(id)}/spans?limit=50000`);
        return { spans: spansFromRows(page), times: page.run ? runTimes(page.run) : null };
      },
      refetchInterval: (q: { state: { data?: { spans: TraceSpanView[]; times: RunTimes | null } } }) => (q.state.data?.spans.some((s) => s.status === "running") ? 2000 : false),
    })),
  });
  const subRunKey = subRuns.map((q) => q.dataUpdatedAt).join(",");
  // The header and the trace's root bar read one set of run times (lib/runs/run-time.ts).
  const { startedAt, endedAt } = tail.header;
  const times = useMemo(() => runTimes({ startedAt, endedAt }), [startedAt, endedAt]);
  // The store's list is mutated in place: tail.spanVersion says when it changed.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const ownSpans = useMemo(() => drawnSpans(tail.spans, runId, times), [tail.spanVersion, runId, times]);
  // The run's own index is rebuilt only when its spans change, not when a sub-run opens
  // (drawnSpans may hand back the store's own list, so the version is a dependency too).
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const rootIndex = useMemo(() => indexSpans(ownSpans), [ownSpans, tail.spanVersion]);
  const { indexes, allSpans, loadingSubRuns } = useMemo(() => {
    const map = new Map<string, SpanIndex>([[runId, rootIndex]]);
    // A fresh array per change: the store's list is appended in place.
    let all: TraceSpanView[] = ownSpans.slice();
    const loading = new Set<string>();
    subRuns.forEach((q, i) => {
      const id = subRunIds[i];
      if (!id) return;
      if (q.data) {
        // A sub-run's own span says what its header says: start → last answer (its wait for the parent is not run time).
        const spans = q.data.times ? drawnSpans(q.data.spans, id, q.data.times) : drawnSubRunSpans(q.data.spans);
        map.set(id, indexSpans(spans));
        all = all.concat(spans);
      } else loading.add(id);
    });
    return { indexes: map, allSpans: all, loadingSubRuns: loading };
    // tail.spanVersion and subRunKey say when the (mutable) span lists changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runId, rootIndex, ownSpans, tail.spanVersion, subRunKey, subRunIds]);

  const agents = useMemo(() => [...new Set(allSpans.filter((s) => s.kind === "sub_agent").map((s) => s.name))], [allSpans]);
  const inferenceTokens = useMemo(
    () => tail.spans.filter((s) => s.kind === "inference" && s.status === "ok").map((s): TokenUsage => s.tokens ?? { inputTokens: 0, outputTokens: 0 }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [tail.spanVersion],
  );
  // The conversation marks a fork's edited answers and tool results as the trace does, from the same spans.
  const edits = useMemo(
    () => conversationEdits(tail.spans),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [tail.spanVersion],
  );
  const state = useMemo(() => ({ collapsed, expandedSubRuns, foldedAgents, search }), [collapsed, expandedSubRuns, foldedAgents, search]);
  const onToggleCollapse = useCallback((key: string) => setCollapsed((c) => toggle(c, key)), []);
  const onToggleSubRun = useCallback((id: string) => setExpandedSubRuns((c) => toggle(c, id)), []);
  const onSelect = useCallback((row: TimelineRow) => setSelected({ key: row.key, runId: row.span.runId, spanId: row.span.id }), []);
  // The model call being written, on its span: the row and the panel show its text, the header counts its
  // tokens until the ledger has the call (then its recorded count stands). Running calls are read once per
  // change of the spans, matched per token.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const ownOpenCalls = useMemo(() => openCalls(tail.spans), [tail.spanVersion]);
  const allOpenCalls = useMemo(() => openCalls(allSpans), [allSpans]);
  const liveText = useMemo(() => liveOutput(allOpenCalls, tail.liveCall), [allOpenCalls, tail.liveCall]);
  const ownLiveTokens = useMemo(() => liveOutput(ownOpenCalls, tail.liveCall)?.tokens ?? 0, [ownOpenCalls, tail.liveCall]);
  // The same axis the waterfall draws (its spans, its range), so a zoom lands on the span.
  const zoomTo = (span: TraceSpanView) => {
    const axisSpans = allSpans.filter((s) => onTimeAxis(s, times));
    const { start, end } = axisRange(axisSpans, Date.now());
    const scale = timeScale(axisSpans, start, end);
    const a = scale.toFraction(span.startMs);
    const b = scale.toFraction(span.endMs ?? end);
    const pad = Math.max(0.002, (b - a) * 0.1);
    setZoom([Math.max(0, a - pad), Math.min(1, b + pad)]);
  };

  return (
    <div>
      <RunHeader header={tail.header} liveTokens={ownLiveTokens} taskImages={taskImages} canLaunch={canLaunch} onChanged={tail.refresh} />
      {tail.accessEnded ? (
        <div className="mb-4">
          <StreamEndedAlert end={tail.accessEnded} />
        </div>
      ) : null}
      {hadApprovals && (
        <div className="mb-4">
          <RunPendingApprovals runId={tail.header.runId} canDecide={canDecide} live={liveSignal} />
        </div>
      )}
      <RunEvaluations runId={runId} rootRunId={tail.header.rootRunId} live={live} endedAt={tail.header.endedAt} canAddToDataset={canAddToDataset} />
      {plan ? <PlanSection runId={runId} plan={plan} tailEvents={tail.events} awaitingApprovalRunIds={tail.header.awaitingApprovalRunIds} /> : null}
      <div role="tablist" className="mb-3 flex gap-1 border-b border-zinc-200">
        {(["trace", "conversation"] as const).map((t) => (
          <button key={t} role="tab" aria-selected={tab === t} onClick={() => setTab(t)} className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${tab === t ? "border-indigo-600 text-indigo-700" : "border-transparent text-zinc-600"}`}>
            {t === "trace" ? "Trace" : "Conversation"}
          </button>
        ))}
        <span className="ml-auto self-center text-xs text-zinc-500" data-testid="live-indicator">
          {!tail.complete
            ? `loading spans… ${Math.max(tail.loaded, tail.spans.length).toLocaleString("en-US")}`
            : live
              ? tail.streaming
                ? `live · streaming · seq ${tail.since}`
                : `live · polling every ${pollMs} ms · seq ${tail.since}`
              : `finished · ${plural(tail.spans.length, "span")}`}
        </span>
      </div>
      {tail.error ? <p className="mb-2 text-sm text-red-600">{tail.error.message}</p> : null}
      {tab === "trace" ? (
        <div className="space-y-3">
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <input aria-label="Search spans" placeholder="Search spans by name, tool or text" value={search} onChange={(e) => setSearch(e.target.value)} className="w-72 rounded-md px-3 py-1.5 ring-1 ring-zinc-300 ring-inset" />
            <button type="button" className="text-indigo-600 hover:underline disabled:text-zinc-400" disabled={zoom[0] === 0 && zoom[1] === 1} onClick={() => setZoom([0, 1])}>
              Reset zoom
            </button>
            <button
              type="button"
              className="text-indigo-600 hover:underline"
              onClick={() => setCollapsed(new Set(tail.spans.filter((s) => s.kind === "iteration").map((s) => `${runId}/${s.id}`)))}
            >
              Collapse iterations
            </button>
            <button type="button" className="text-indigo-600 hover:underline" onClick={() => setCollapsed(new Set())}>
              Expand all
            </button>
            {agents.length ? (
              <span className="flex items-center gap-2 text-xs text-zinc-600">
                Fold agent:
                {agents.map((agent) => (
                  <label key={agent} className="flex items-center gap-1">
                    <input type="checkbox" checked={foldedAgents.has(agent)} onChange={() => setFoldedAgents((f) => toggle(f, agent))} />
                    {agent}
                  </label>
                ))}
              </span>
            ) : null}
          </div>
          <div className="grid gap-3 xl:grid-cols-[minmax(0,1fr)_26rem]">
            {tail.loading ? (
              <p className="text-sm text-zinc-500">Loading the trace…</p>
            ) : (
              <Waterfall
                rootRunId={runId}
                rootAgent={tail.header.agentName}
                indexes={indexes}
                allSpans={allSpans}
                state={state}
                onToggleCollapse={onToggleCollapse}
                onToggleSubRun={onToggleSubRun}
                selectedKey={selected?.key ?? null}
                onSelect={onSelect}
                markers={markers}
                runTimes={times}
                zoom={zoom}
                onZoom={setZoom}
                loadingSubRuns={loadingSubRuns}
                live={liveText}
              />
            )}
            {selected ? (
              <SpanDetails
                key={selected.key}
                runId={selected.runId}
                spanId={selected.spanId}
                live={liveText && liveText.runId === selected.runId && liveText.spanId === selected.spanId ? liveText : null}
                onClose={() => setSelected(null)}
                onZoomTo={zoomTo}
              />
            ) : (
              <p className="text-sm text-zinc-500">Select a span to see its details.</p>
            )}
          </div>
        </div>
      ) : (
        <Conversation runId={runId} live={live} eventSeq={tail.since} inferenceTokens={inferenceTokens} entryAgent={tail.header.agentName} handoffs={handoffs} streaming={tail.streaming} liveCall={tail.liveCall} edits={edits} />
      )}
    </div>
  );
}
