"use client";
// The trace waterfall: one row per span on a shared time axis, windowed with
// @tanstack/react-virtual (only the rows in view are in the DOM, so 200,000
// spans scroll like 20). Long idle stretches are compressed, continue-as-new
// boundaries, follow-ups, handoffs, routing decisions and rejected answers are
// drawn across, and retried attempts are marked on their span, as are a taped
// run's replayed steps and a fork's edited ones (in words).
import { memo, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { TraceSpanView } from "@/lib/runs/schemas";
import { timeScale, visibleRows, type SpanIndex, type TimelineRow, type TimelineState } from "@/lib/runs/timeline";
import { formatDuration } from "@/lib/format/figures";
import { stepDurationMs } from "@/lib/runs/step-duration";
import { MARKER_STYLES, markerTitle, type MarkerEvent } from "@/lib/runs/orchestration-view";
import { barClass, KIND_LABELS, waitNote } from "./colors";
import { useNow } from "@/components/runs/use-now";
import { plural } from "@/lib/text/plural";
import { isFollowUpWindow, isWaitForMessage, onTimeAxis, type RunTimes } from "@/lib/runs/run-time";
import { REPLAYED_TITLE, spanProvenance } from "@/lib/runs/span-attributes";
import { editTitle } from "@/lib/runs/edit-marks";

const ROW_HEIGHT = 26;
const OVERSCAN = 12;
const LABEL_WIDTH = 340;

export interface WaterfallProps {
  rootRunId: string;
  rootAgent: string;
  indexes: ReadonlyMap<string, SpanIndex>;
  /** Every span currently loaded (own run and expanded sub-runs), for the time range. */
  allSpans: readonly TraceSpanView[];
  state: TimelineState;
  onToggleCollapse: (key: string) => void;
  onToggleSubRun: (runId: string) => void;
  selectedKey: string | null;
  onSelect: (row: TimelineRow) => void;
  markers: readonly MarkerEvent[];
  /** The run's start and end (the header's): the follow-up window after the answer stays off the axis. */
  runTimes?: RunTimes;
  /** Zoom window as fractions of the full axis. */
  zoom: [number, number];
  onZoom: (zoom: [number, number]) => void;
  loadingSubRuns: ReadonlySet<string>;
  height?: number;
  /** The text of the model call being generated (token streaming), shown on its open span. */
  liveCall?: { runId: string; text: string } | null;
}

/** The end of a growing text, as much as fits beside a bar. */
const LIVE_TEXT_CHARS = 90;

// Waits are drawn apart from work: an approval striped, a timer hollow and dashed.
const BAR_PATTERN: Partial<Record<TraceSpanView["kind"], string>> = {
  approval_wait: "bg-[repeating-linear-gradient(45deg,transparent,transparent_3px,rgba(255,255,255,.6)_3px,rgba(255,255,255,.6)_6px)]",
  timer: "border border-dashed border-slate-500",
};

const RowView = memo(function RowView({ row, now, top, left, width, selected, collapsed, subRunOpen, loadingSubRun, liveText, onToggleCollapse, onToggleSubRun, onSelect }: {
  row: TimelineRow;
  /** The text so far of this (open model call) span. */
  liveText: string | null;
  now: number;
  top: number;
  left: number;
  width: number;
  selected: boolean;
  collapsed: boolean;
  subRunOpen: boolean;
  loadingSubRun: boolean;
  onToggleCollapse: (key: string) => void;
  onToggleSubRun: (runId: string) => void;
  onSelect: (row: TimelineRow) => void;
}) {
  const { span } = row;
  const duration = stepDurationMs(span, now);
  // An open wait for the next message is a deadline, not a growing time: its note says until when.
  const openWindow = span.endMs === null && isWaitForMessage(span);
  const retried = (span.attempts ?? 1) > 1;
  const retryReason = typeof span.attributes?.retryReason === "string" ? span.attributes.retryReason : null;
  const note = retryReason ?? waitNote(span);
  const liveTail = liveText ? (liveText.length > LIVE_TEXT_CHARS ? `…${liveText.slice(-LIVE_TEXT_CHARS)}` : liveText) : null;
  const provenance = spanProvenance(span.attributes);
  const label = `${KIND_LABELS[span.kind]} ${span.name}${provenance?.kind === "replayed" ? " (replayed)" : provenance?.kind === "edited" ? ` (edited by ${provenance.mark.by})` : ""}`;
  return (
    <div
      role="row"
      aria-selected={selected}
      data-testid="span-row"
      data-kind={span.kind}
      data-status={span.status}
      data-run={span.runId}
      className={`absolute left-0 right-0 flex items-center text-xs ${selected ? "bg-indigo-50" : row.matched ? "bg-yellow-50" : "hover:bg-zinc-50"}`}
      style={{ top, height: ROW_HEIGHT }}
    >
      <div role="gridcell" className="flex shrink-0 items-center gap-1 truncate pr-2" style={{ width: LABEL_WIDTH, paddingLeft: 4 + row.depth * 14 }}>
        {row.subRunId ? (
          <button type="button" className="w-4 shrink-0 text-teal-700" aria-expanded={subRunOpen} aria-label={`${subRunOpen ? "Hide" : "Show"} sub-run ${span.name}`} onClick={() => onToggleSubRun(row.subRunId ?? "")}>
            {loadingSubRun ? "…" : subRunOpen ? "⊟" : "⊞"}
          </button>
        ) : row.hasChildren ? (
          <button type="button" className="w-4 shrink-0 text-zinc-500" aria-expanded={!collapsed} aria-label={`${collapsed ? "Expand" : "Collapse"} ${span.name}`} onClick={() => onToggleCollapse(row.key)}>
            {collapsed ? "▸" : "▾"}
          </button>
        ) : (
          <span className="w-4 shrink-0" />
        )}
        <button type="button" className="flex min-w-0 items-center gap-1 text-left" onClick={() => onSelect(row)} title={label}>
          <span className={`inline-block h-2 w-2 shrink-0 rounded-full ${barClass(span.kind, span.status === "running" ? "ok" : span.status)}`} />
          <span className="truncate font-medium text-zinc-800">{span.name}</span>
          <span className="shrink-0 text-zinc-400">{KIND_LABELS[span.kind]}</span>
          {/* Where a taped run's step came from, in words: reused from the recording, or written by someone (never both). */}
          {provenance?.kind === "replayed" ? (
            <span data-testid="span-row-replayed" className="shrink-0 rounded bg-sky-100 px-1 text-sky-800" title={REPLAYED_TITLE}>
              replayed
            </span>
          ) : provenance?.kind === "edited" ? (
            <span data-testid="span-row-edited" className="shrink-0 truncate rounded bg-amber-100 px-1 text-amber-900" title={editTitle(provenance.mark)}>
              edited by {provenance.mark.by}
            </span>
          ) : null}
          {retried ? (
            <span data-testid="span-retried" className="shrink-0 rounded bg-amber-100 px-1 text-amber-800" title={retryReason ?? "earlier attempts failed and were retried by Temporal"}>
              ↻ {span.attempts} attempts
            </span>
          ) : null}
        </button>
      </div>
      <div role="gridcell" className="relative h-full flex-1 overflow-hidden border-l border-zinc-100">
        {width > 0 ? (
          <button
            type="button"
            tabIndex={-1}
            aria-label={`${label}, ${formatDuration(duration)}`}
            onClick={() => onSelect(row)}
            className={`absolute top-1.5 h-3 rounded-sm ${barClass(span.kind, span.status)} ${BAR_PATTERN[span.kind] ?? ""}`}
            style={{ left: `${left * 100}%`, width: `max(2px, ${width * 100}%)` }}
          />
        ) : null}
        <span
          className="pointer-events-none absolute top-1 whitespace-nowrap text-[10px] text-zinc-500"
          // An open window starts where the axis ends: its note is set against the right edge, where it fits.
          style={openWindow ? { right: 4 } : { left: `calc(${Math.min(0.92, left + Math.max(width, 0)) * 100}% + 4px)` }}
        >
          {openWindow ? null : formatDuration(duration)}
          {note ? (
            <span data-testid={openWindow && isFollowUpWindow(span) ? "span-follow-up-window" : undefined} className={`${openWindow ? "" : "ml-2"} ${retryReason ? "text-amber-700" : "text-slate-600"}`}>
              {note}
            </span>
          ) : null}
          {liveTail ? (
            <span data-testid="span-live-text" className="ml-2 italic text-indigo-700">
              “{liveTail.replace(/\s+/g, " ")}”
            </span>
          ) : null}
        </span>
      </div>
    </div>
  );
});

export function Waterfall(props: WaterfallProps) {
  const { indexes, state, zoom } = props;
  const height = props.height ?? 560;
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);
  const axis = useRef<HTMLDivElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const now = useNow();
  const { runTimes } = props;
  // The window after the run's answer is not run time: it neither stretches the axis nor keeps it growing.
  // Nor does any open wait for a message (a sub-agent's idle wait for its parent): it is a deadline, drawn
  // from where it began to the edge with its "until", not a bar growing by the clock.
  const axisSpans = useMemo(
    () => props.allSpans.filter((s) => onTimeAxis(s, runTimes)),
    [props.allSpans, runTimes],
  );
  const hasRunning = useMemo(() => axisSpans.some((s) => s.endMs === null), [axisSpans]);
  // Only a live trace needs the clock in its range; a finished one stays put.
  const clock = hasRunning ? now : 0;

  const rows = useMemo(() => visibleRows(props.rootRunId, indexes, state, props.rootAgent), [props.rootRunId, props.rootAgent, indexes, state]);
  const { start, end } = useMemo(() => {
    let lo = Infinity;
    let hi = -Infinity;
    for (const s of axisSpans) {
      if (s.startMs < lo) lo = s.startMs;
      const until = s.endMs ?? clock;
      if (until > hi) hi = until;
    }
    return Number.isFinite(lo) ? { start: lo, end: Math.max(hi, lo + 1) } : { start: 0, end: 1 };
  }, [axisSpans, clock]);
  const scale = useMemo(() => timeScale(axisSpans, start, end), [axisSpans, start, end]);
  const [z0, z1] = zoom;
  const toView = (t: number) => (scale.toFraction(t) - z0) / (z1 - z0);

  // Rows have one fixed height, so nothing is measured: the default index keys
  // keep the 200,000-row offset table from being rebuilt on every scroll frame
  // (it is rebuilt only when the row count changes). initialRect lets the first
  // render (and the server's) show rows before the grid has been measured.
  // The project does not use the React Compiler, and only plain numbers from the
  // virtualizer reach the memoised rows, so its compiler warning does not apply.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => grid.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    initialRect: { width: 0, height },
  });
  const fractionAt = (clientX: number) => {
    const box = axis.current?.getBoundingClientRect();
    if (!box || box.width === 0) return 0;
    return z0 + Math.min(1, Math.max(0, (clientX - box.left) / box.width)) * (z1 - z0);
  };
  const endDrag = () => {
    if (drag && Math.abs(drag.to - drag.from) > 0.005) props.onZoom([Math.min(drag.from, drag.to), Math.max(drag.from, drag.to)]);
    setDrag(null);
  };
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const windowMs = (end - start) * (z1 - z0);

  return (
    <div className="rounded-lg border border-zinc-200 bg-white" data-testid="waterfall" data-span-count={rows.length}>
      <div className="flex border-b border-zinc-200 text-[10px] text-zinc-500">
        <div className="shrink-0 px-2 py-1" style={{ width: LABEL_WIDTH }}>
          {plural(rows.length, "row")} · drag the axis to zoom
        </div>
        <div
          ref={axis}
          data-testid="time-axis"
          className="relative h-6 flex-1 cursor-crosshair select-none border-l border-zinc-100"
          onPointerDown={(e: ReactPointerEvent) => {
            e.currentTarget.setPointerCapture(e.pointerId);
            const f = fractionAt(e.clientX);
            setDrag({ from: f, to: f });
          }}
          onPointerMove={(e) => drag && setDrag({ ...drag, to: fractionAt(e.clientX) })}
          onPointerUp={endDrag}
        >
          {ticks.map((t) => (
            <span key={t} className="absolute top-1" style={{ left: `calc(${t * 100}% - ${t === 1 ? 40 : 0}px)` }}>
              +{formatDuration(windowMs * t + (end - start) * z0)}
            </span>
          ))}
          {drag ? <span className="absolute inset-y-0 bg-indigo-200/60" style={{ left: `${((Math.min(drag.from, drag.to) - z0) / (z1 - z0)) * 100}%`, width: `${(Math.abs(drag.to - drag.from) / (z1 - z0)) * 100}%` }} /> : null}
        </div>
      </div>
      <div ref={grid} role="grid" aria-label="Trace timeline" aria-rowcount={rows.length} className="relative overflow-auto" style={{ height }}>
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          <div className="pointer-events-none absolute inset-y-0 right-0" style={{ left: LABEL_WIDTH }}>
            {scale.gaps.map((gap) => {
              const l = toView(gap.start);
              const r = toView(gap.end);
              if (r < 0 || l > 1) return null;
              return (
                <div key={gap.start} data-testid="idle-gap" className="absolute inset-y-0 bg-[repeating-linear-gradient(90deg,rgba(0,0,0,.04),rgba(0,0,0,.04)_2px,transparent_2px,transparent_5px)]" style={{ left: `${l * 100}%`, width: `${(r - l) * 100}%` }}>
                  <span className="sticky top-0 block whitespace-nowrap text-[10px] text-zinc-400">idle {formatDuration(gap.end - gap.start)}</span>
                </div>
              );
            })}
            {props.markers.map((m) => {
              const x = toView(Date.parse(m.at));
              if (x < 0 || x > 1) return null;
              return <div key={m.seq} data-testid={`marker-${m.type}`} title={markerTitle(m)} className={`absolute inset-y-0 border-l ${MARKER_STYLES[m.type]}`} style={{ left: `${x * 100}%` }} />;
            })}
          </div>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            const s = row.span.startMs;
            const e = row.span.endMs ?? now;
            const left = toView(s);
            const right = toView(e);
            const visible = right >= 0 && left <= 1;
            return (
              <RowView
                key={row.key}
                row={row}
                now={row.span.endMs !== null ? 0 : now}
                top={item.start}
                left={Math.max(0, left)}
                width={visible ? Math.min(1, right) - Math.max(0, left) : 0}
                selected={props.selectedKey === row.key}
                collapsed={state.collapsed.has(row.key)}
                subRunOpen={row.subRunId !== null && state.expandedSubRuns.has(row.subRunId)}
                loadingSubRun={row.subRunId !== null && props.loadingSubRuns.has(row.subRunId)}
                liveText={row.span.kind === "inference" && row.span.status === "running" && props.liveCall?.runId === row.span.runId ? props.liveCall.text : null}
                onToggleCollapse={props.onToggleCollapse}
                onToggleSubRun={props.onToggleSubRun}
                onSelect={props.onSelect}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}
