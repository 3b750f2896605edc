"use client";
// One row of the trace waterfall: the span's name (with its marks, and the
// text so far of a model call being written, cut with an ellipsis) and its bar
// on the time axis with its duration, placed where it shows whole (after the
// bar, inside it, or before it: lib/runs/bar-label.ts). Nothing in a row is
// drawn past its timeline's edge.
import { memo, type CSSProperties } from "react";
import type { TraceSpanView } from "@/lib/runs/schemas";
import type { TimelineRow } from "@/lib/runs/timeline";
import { formatDuration } from "@/lib/format/figures";
import { stepDurationMs } from "@/lib/runs/step-duration";
import { barLabelSide, LABEL_GAP_PX, textWidthPx, type LabelSide } from "@/lib/runs/bar-label";
import { barClass, KIND_LABELS, waitNote } from "./colors";
import { isFollowUpWindow, isWaitForMessage } from "@/lib/runs/run-time";
import { REPLAYED_TITLE, spanProvenance } from "@/lib/runs/span-attributes";
import { editTitle } from "@/lib/runs/edit-marks";

export const ROW_HEIGHT = 26;
export const LABEL_WIDTH = 340;

/** The end of a growing text, as much as the name column can show. */
const LIVE_TEXT_CHARS = 90;

// Waits are drawn apart from work: an approval striped, a timer hollow and dashed.
const BAR_PATTERN: Partial<Record<TraceSpanView["kind"], string>> = {
  approval_wait: "bg-[repeating-linear-gradient(45deg,transparent,transparent_3px,rgba(255,255,255,.6)_3px,rgba(255,255,255,.6)_6px)]",
  timer: "border border-dashed border-slate-500",
};

const pct = (fraction: number) => `${fraction * 100}%`;

/** The box a bar's label is laid out in: the stretch of the timeline on the chosen side of the bar. */
function labelBox(side: LabelSide, left: number, right: number): CSSProperties {
  if (side === "after") return { left: `calc(${pct(right)} + ${LABEL_GAP_PX}px)`, right: 0 };
  if (side === "before") return { left: 0, right: `calc(${pct(1 - left)} + ${LABEL_GAP_PX}px)`, justifyContent: "flex-end" };
  return { left: `calc(${pct(left)} + ${LABEL_GAP_PX}px)`, right: `calc(${pct(1 - right)} + ${LABEL_GAP_PX}px)`, justifyContent: "flex-end" };
}

export const RowView = memo(function RowView({ row, now, top, left, width, trackPx, selected, collapsed, subRunOpen, loadingSubRun, liveText, onToggleCollapse, onToggleSubRun, onSelect }: {
  row: TimelineRow;
  /** The text so far of this (open model call) span. */
  liveText: string | null;
  now: number;
  top: number;
  /** The bar's start and width as fractions of the timeline in view. */
  left: number;
  width: number;
  /** The timeline's width in px (where a label fits is decided in px). */
  trackPx: number;
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
  const durationText = formatDuration(duration);
  // A bar is at least 2 px wide, and never past the timeline's end.
  const barLeft = Math.min(left, Math.max(0, 1 - 2 / Math.max(1, trackPx)));
  const right = Math.min(1, barLeft + Math.max(width, 2 / Math.max(1, trackPx)));
  const bar = { startPx: barLeft * trackPx, endPx: right * trackPx };
  // The duration and the note together where both fit; else the duration alone (the note is in the panel and the title).
  const sideWithNote = note ? barLabelSide(bar, textWidthPx(`${durationText}  ${note}`), trackPx) : null;
  const side = sideWithNote ?? barLabelSide(bar, textWidthPx(durationText), trackPx) ?? "after";
  const showNote = note !== null && (sideWithNote !== null || side === "after");
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
          {/* Beside the text so far the name keeps its room (up to 11rem of the 340 px column): the text is what gives way. */}
          <span className={`truncate font-medium text-zinc-800 ${liveTail ? "max-w-[11rem] shrink-0" : ""}`}>{span.name}</span>
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
          {/* The text so far, cut to the name column (the span's panel shows all of it). */}
          {liveTail ? (
            <span data-testid="span-live-text" className="min-w-0 shrink-[4] truncate italic text-indigo-700">
              “{liveTail.replace(/\s+/g, " ")}”
            </span>
          ) : null}
        </button>
      </div>
      <div role="gridcell" className="relative h-full flex-1 overflow-hidden border-l border-zinc-100">
        {width > 0 ? (
          <button
            type="button"
            tabIndex={-1}
            aria-label={`${label}, ${durationText}`}
            onClick={() => onSelect(row)}
            className={`absolute top-1.5 h-3 rounded-sm ${barClass(span.kind, span.status)} ${BAR_PATTERN[span.kind] ?? ""}`}
            style={{ left: pct(barLeft), width: pct(right - barLeft) }}
          />
        ) : null}
        {openWindow ? (
          // An open window starts where the axis ends: its note is set against the right edge, cut to the timeline.
          <span className="pointer-events-none absolute top-1 flex justify-end overflow-hidden whitespace-nowrap text-[10px]" style={{ left: 0, right: LABEL_GAP_PX }}>
            <span data-testid={isFollowUpWindow(span) ? "span-follow-up-window" : undefined} className="truncate text-slate-600">
              {note}
            </span>
          </span>
        ) : (
          <span data-side={side} className="pointer-events-none absolute top-1 flex overflow-hidden whitespace-nowrap text-[10px] leading-4 text-zinc-500" style={labelBox(side, barLeft, right)}>
            <span data-testid="bar-duration" className={`inline-block shrink-0 ${side === "inside" ? "rounded-sm bg-white/85 px-0.5 text-zinc-700" : ""}`}>
              {durationText}
            </span>
            {showNote ? <span className={`ml-2 min-w-0 truncate ${retryReason ? "text-amber-700" : "text-slate-600"}`}>{note}</span> : null}
          </span>
        )}
      </div>
    </div>
  );
});
