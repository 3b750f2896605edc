"use client";
// The trace waterfall: one row per span on a shared time axis, windowed with
// @tanstack/react-virtual (only the rows in view are in the DOM, so 200,000
// spans scroll like 20). Long waits and idle stretches are broken out of the
// axis (lib/runs/time-axis.ts), continue-as-new boundaries, follow-ups,
// handoffs, routing decisions and rejected answers are drawn across, and
// retried attempts are marked on their span, as are a taped run's replayed
// steps and a fork's edited ones (in words). The pane is as tall as its rows,
// up to `height`, and scrolls beyond.
import { useEffect, useMemo, useRef, useState, type RefObject } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { TraceSpanView } from "@/lib/runs/schemas";
import { visibleRows, type SpanIndex, type TimelineRow, type TimelineState } from "@/lib/runs/timeline";
import { axisLabels, axisRange, axisWork, breakText, scaleFromWork } from "@/lib/runs/time-axis";
import type { LiveOutput } from "@/lib/runs/live-call";
import { MARKER_STYLES, markerTitle, type MarkerEvent } from "@/lib/runs/orchestration-view";
import { useNow } from "@/components/runs/use-now";
import { plural } from "@/lib/text/plural";
import { onTimeAxis, type RunTimes } from "@/lib/runs/run-time";
import { LABEL_WIDTH, ROW_HEIGHT, RowView } from "./waterfall-row";
import { WaterfallAxis } from "./waterfall-axis";

const OVERSCAN = 12;
/** The pane's tallest (it scrolls beyond), unless the page asks for another. */
const MAX_HEIGHT = 560;
/** The timeline's width before it is measured (the server's render, the first frame). */
const UNMEASURED_TRACK_PX = 800;

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
  /** The pane's largest height in px; a shorter trace gets a shorter pane. */
  height?: number;
  /** The model call being written (token streaming) and its span: its row shows the end of the text so far. */
  live?: LiveOutput | null;
}

/**
 * The timeline's width in px, followed as the page resizes (labels are placed in px): the grid's inner width
 * (without its scrollbar, when the rows scroll) less the name column.
 */
function useTrackWidth(grid: RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(UNMEASURED_TRACK_PX);
  useEffect(() => {
    const node = grid.current;
    if (!node || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => setWidth(node.clientWidth > LABEL_WIDTH ? node.clientWidth - LABEL_WIDTH : UNMEASURED_TRACK_PX));
    observer.observe(node);
    return () => observer.disconnect();
  }, [grid]);
  return width;
}

export function Waterfall(props: WaterfallProps) {
  const { indexes, state, zoom } = props;
  const grid = useRef<HTMLDivElement>(null);
  const trackPx = useTrackWidth(grid);
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
  const { start, end } = useMemo(() => axisRange(axisSpans, clock), [axisSpans, clock]);
  // What worked and what waited is read once per change of the spans; the clock only moves the range.
  const work = useMemo(() => axisWork(axisSpans), [axisSpans]);
  const scale = useMemo(() => scaleFromWork(work, start, end), [work, start, end]);
  const [z0, z1] = zoom;
  const toView = (t: number) => (scale.toFraction(t) - z0) / (z1 - z0);
  const labels = useMemo(() => axisLabels(scale, zoom, trackPx), [scale, zoom, trackPx]);
  // As tall as the rows, up to the largest height: a short trace leaves no empty box under it.
  const height = Math.min(props.height ?? MAX_HEIGHT, Math.max(1, rows.length) * ROW_HEIGHT);

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

  return (
    // self-start: beside a taller span panel the pane keeps its own height, not the panel's.
    <div className="self-start rounded-lg border border-zinc-200 bg-white" data-testid="waterfall" data-span-count={rows.length}>
      <div className="flex border-b border-zinc-200 text-[10px] text-zinc-500">
        <div className="shrink-0 px-2 py-1" style={{ width: LABEL_WIDTH }}>
          {plural(rows.length, "row")} · drag the axis to zoom
        </div>
        <WaterfallAxis labels={labels} zoom={zoom} onZoom={props.onZoom} />
      </div>
      <div ref={grid} role="grid" aria-label="Trace timeline" aria-rowcount={rows.length} className="relative overflow-auto" style={{ height }}>
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          <div className="pointer-events-none absolute inset-y-0 right-0" style={{ left: LABEL_WIDTH }}>
            {/* Each break's strip, hatched; the axis above says how long was cut. */}
            {scale.gaps.map((gap) => {
              const l = toView(gap.start);
              const r = toView(gap.end);
              if (r < 0 || l > 1) return null;
              return (
                <div
                  key={gap.start}
                  data-testid="idle-gap"
                  title={breakText(gap)}
                  className="absolute inset-y-0 border-x border-dashed border-zinc-300 bg-[repeating-linear-gradient(90deg,rgba(0,0,0,.04),rgba(0,0,0,.04)_2px,transparent_2px,transparent_5px)]"
                  style={{ left: `${Math.max(0, l) * 100}%`, width: `${(Math.min(1, r) - Math.max(0, l)) * 100}%` }}
                />
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
                left={Math.min(1, Math.max(0, left))}
                width={visible ? Math.min(1, right) - Math.max(0, left) : 0}
                trackPx={trackPx}
                selected={props.selectedKey === row.key}
                collapsed={state.collapsed.has(row.key)}
                subRunOpen={row.subRunId !== null && state.expandedSubRuns.has(row.subRunId)}
                loadingSubRun={row.subRunId !== null && props.loadingSubRuns.has(row.subRunId)}
                liveText={props.live && props.live.runId === row.span.runId && props.live.spanId === row.span.id ? props.live.text : null}
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
