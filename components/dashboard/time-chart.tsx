"use client";
// One canvas chart (uPlot): bars (stacked when a series is split) or lines over
// the dashboard's time grid. The server renders its empty box; the canvas is
// drawn in an effect after mount. The chart panel around it holds the title,
// legend and the table view.
import { useEffect, useRef, useState } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { MetricUnit } from "@/lib/metrics/schemas";
import { isolatedPoints, nearestFilled, pickNearestLine, pickStackedLine, stackLines, type ChartLine } from "./chart-data";
import { formatAxis, formatBucket, formatMetric } from "./format";
import { formatAxisTime } from "@/lib/format/figures";

export interface TimeChartProps {
  /** Names the chart for assistive technology (the table view carries its figures). */
  label: string;
  testId: string;
  xs: number[];
  from: number;
  to: number;
  stepSeconds: number;
  lines: ChartLine[];
  style: "bars" | "lines";
  unit: MetricUnit;
  /** Called with the bucket and the line a click picked. */
  onPick?: (idx: number, line: number) => void;
}

const HEIGHT = 180;
/** The axes' font, set on uPlot and used to measure its labels, so the room made for a label is the room it takes. */
const AXIS_FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
/** uPlot's tick length plus the gap between a tick and its label (its defaults, spelled out because the sizes below add them). */
const TICK_AND_GAP = 10 + 5;
/** Clear space kept between any label and the canvas's edge. */
const EDGE = 4;

let measurer: CanvasRenderingContext2D | null = null;
/** The widest of `labels` in CSS px, in the axes' font (0 for none). */
function widest(labels: readonly string[] | null | undefined): number {
  measurer ??= document.createElement("canvas").getContext("2d");
  if (!measurer || !labels?.length) return 0;
  measurer.font = AXIS_FONT;
  return Math.max(...labels.map((label) => measurer?.measureText(label).width ?? 0));
}
const WHOLE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 1e6, 1e7, 1e8, 1e9];
/** How far (CSS px) a click may miss a thin bar and still pick it. */
const CLICK_REACH_PX = 6;

interface Hover {
  idx: number;
}

function buildData(props: TimeChartProps): uPlot.AlignedData {
  if (props.style === "lines") return [props.xs, ...props.lines.map((l) => l.values)];
  // Stacked bars: each drawn from 0 to its running sum, the tallest first so the lower ones overlay it.
  const stacked = stackLines(props.lines);
  return [props.xs, ...stacked.slice().reverse()];
}

function buildOptions(props: TimeChartProps, width: number, onHover: (h: Hover | null) => void): uPlot.Options {
  const drawn = props.style === "lines" ? props.lines : props.lines.slice().reverse();
  const barWidth = (width / Math.max(1, props.xs.length)) * 0.8;
  // More buckets than pixels: sub-pixel bars cost ~8× the draw time of a filled area, which uPlot thins to a
  // min/max per pixel (bench/dashboard-chart.ts). Steps chosen from the range (lib/metrics/step.ts) keep a chart
  // within ~150 points, so this is only a guard: drawn as an area, a lone bucket would be a hairline spike.
  const dense = props.xs.length > width;
  const linear = uPlot.paths.linear?.();
  const bars = dense ? linear : uPlot.paths.bars?.({ align: 1, size: [0.8, 60, Math.min(2, barWidth)] });
  // Labels are centred on their ticks: the last time label needs half its width right of the plot, the first
  // half its width left of it (room the value axis must leave). Measured as uPlot lays them out, each pass.
  let timeLabelWidth = 0;
  return {
    width,
    height: HEIGHT,
    padding: [10, () => Math.ceil(timeLabelWidth / 2) + EDGE, 0, EDGE],
    legend: { show: false },
    cursor: { y: false, points: { show: props.style === "lines" }, drag: { x: false, y: false } },
    scales: {
      x: { time: true, range: () => [props.from, props.to] },
      y: { range: (_u, _min, max) => [0, props.unit === "ratio" ? Math.max(1, max) : Math.max(1, max * 1.1)] },
    },
    axes: [
      {
        stroke: "#71717a",
        grid: { stroke: "#f4f4f5" },
        ticks: { stroke: "#e4e4e7" },
        font: AXIS_FONT,
        size: TICK_AND_GAP + 16 + EDGE,
        // The product's 24-hour clock (uPlot's own ticks read "1:44pm"); days once the ticks are a day apart.
        values: (_u, splits, _axis, _space, increment) => {
          const labels = splits.map((v) => formatAxisTime(v * 1000, increment >= 86_400));
          timeLabelWidth = widest(labels);
          return labels;
        },
      },
      {
        stroke: "#71717a",
        grid: { stroke: "#f4f4f5" },
        ticks: { stroke: "#e4e4e7" },
        font: AXIS_FONT,
        // As wide as its widest label ("12.5 min", "$0.003"), and wide enough for half the first time label.
        size: (_u, values) => Math.ceil(Math.max(TICK_AND_GAP + widest(values), timeLabelWidth / 2)) + 2,
        // Counts have no halves: whole-number steps only.
        incrs: props.unit === "count" || props.unit === "tokens" ? WHOLE_STEPS : undefined,
        values: (_u, splits) => splits.map((v) => formatAxis(v, props.unit)),
      },
    ],
    series: [
      {},
      ...drawn.map((line) => ({
        label: line.label,
        stroke: line.color,
        fill: props.style === "bars" ? line.color : undefined,
        width: props.style === "bars" ? 0 : 1.5,
        paths: props.style === "bars" ? bars : linear,
        spanGaps: false,
        // Lines keep uPlot's automatic points where they are far enough apart; where they are not, a lone reading
        // between gaps is still drawn as a dot (a line through one point draws nothing).
        ...(props.style === "bars"
          ? { points: { show: false } }
          : { points: { filter: (u: uPlot, seriesIdx: number, show: boolean) => (show ? null : isolatedPoints(u.data[seriesIdx] ?? [])) } }),
      })),
    ],
    hooks: {
      setCursor: [(u) => onHover(u.cursor.idx === null || u.cursor.idx === undefined ? null : { idx: u.cursor.idx })],
    },
  };
}

/** The bucket and line under a click, forgiving a few pixels around thin bars; null on empty space. */
function pick(u: uPlot, props: TimeChartProps): { idx: number; line: number } | null {
  const left = u.cursor.left ?? -1;
  const top = u.cursor.top ?? -1;
  if (left < 0 || top < 0) return null;
  const idx0 = props.style === "bars" ? u.posToIdx(left) : (u.cursor.idx ?? -1);
  if (idx0 < 0) return null;
  const pxPerBucket = Math.max(1, u.bbox.width / devicePixelRatio / Math.max(1, props.xs.length));
  const idx = nearestFilled(props.lines, idx0, Math.ceil(CLICK_REACH_PX / pxPerBucket));
  if (idx === null) return null;
  const value = u.posToVal(top, "y");
  const line = props.style === "bars" ? pickStackedLine(stackLines(props.lines), idx, value) : pickNearestLine(props.lines, idx, value);
  return line === null ? null : { idx, line };
}

export function TimeChart(props: TimeChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  const [hover, setHover] = useState<Hover | null>(null);
  useEffect(() => {
    latest.current = props;
  });

  // The chart is rebuilt when its shape changes (lines, style); new numbers on the same shape only set the data.
  const shape = `${props.style}|${props.unit}|${props.from}|${props.to}|${props.lines.map((l) => `${l.key}:${l.color}`).join(",")}`;
  const plot = useRef<uPlot | null>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const width = Math.max(200, element.clientWidth);
    const u = new uPlot(buildOptions(latest.current, width, setHover), buildData(latest.current), element);
    plot.current = u;
    u.over.dataset.testid = `${latest.current.testId}-plot`;
    const onClick = () => {
      const picked = pick(u, latest.current);
      if (picked) latest.current.onPick?.(picked.idx, picked.line);
    };
    u.over.addEventListener("click", onClick);
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(200, element.clientWidth), height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      u.over.removeEventListener("click", onClick);
      u.destroy();
      plot.current = null;
    };
  }, [shape]);

  useEffect(() => {
    plot.current?.setData(buildData(props));
  }, [props]);

  const at = hover ? hover.idx : null;
  const x = at === null ? undefined : props.xs[at];
  return (
    <div>
      <p className="h-5 truncate text-xs text-zinc-600" aria-hidden="true" data-testid={`${props.testId}-hover`}>
        {at !== null && x !== undefined
          ? `${formatBucket(x * 1000, props.stepSeconds)}: ${props.lines.map((l) => `${l.label} ${formatMetric(l.values[at], props.unit)}`).join(" · ")}`
          : ""}
      </p>
      <div ref={box} role="img" aria-label={props.label} className={props.onPick ? "cursor-pointer" : undefined} data-testid={props.testId} />
    </div>
  );
}
