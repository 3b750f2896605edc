import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { TraceSpanView } from "@/lib/runs/schemas";
import { indexSpans, type SpanIndex, type TimelineState } from "@/lib/runs/timeline";
import { Waterfall, type WaterfallProps } from "./waterfall";

const RUN = "run-1";
const STATE: TimelineState = { collapsed: new Set(), expandedSubRuns: new Set(), foldedAgents: new Set(), search: "" };

/** A finished run span with `tools - 1` tool calls under it, 10 ms apart. */
function spans(tools: number): TraceSpanView[] {
  const t0 = Date.parse("2026-01-01T00:00:00Z");
  const root: TraceSpanView = { id: "s0", parentId: null, kind: "run", name: "bench", status: "ok", runId: RUN, startMs: t0, endMs: t0 + tools * 10 };
  const children = Array.from({ length: tools - 1 }, (_, i): TraceSpanView => ({ id: `s${i + 1}`, parentId: "s0", kind: "tool", name: `tool_${i + 1}`, status: "ok", runId: RUN, startMs: t0 + i * 10, endMs: t0 + i * 10 + 5 }));
  return [root, ...children];
}

/** The waterfall's first render (what the server sends, before any scroll). */
function render(all: TraceSpanView[], height?: number): string {
  const indexes = new Map<string, SpanIndex>([[RUN, indexSpans(all)]]);
  const props: WaterfallProps = {
    rootRunId: RUN,
    rootAgent: "bench",
    indexes,
    allSpans: all,
    state: STATE,
    onToggleCollapse: () => {},
    onToggleSubRun: () => {},
    selectedKey: null,
    onSelect: () => {},
    markers: [],
    zoom: [0, 1],
    onZoom: () => {},
    loadingSubRuns: new Set(),
    height,
  };
  return renderToStaticMarkup(createElement(Waterfall, props));
}

const rowTops = (html: string) => [...html.matchAll(/data-testid="span-row"[^>]*style="top:(\d+)(?:px)?;height:26px"/g)].map((m) => Number(m[1]));

describe("Waterfall windowing", () => {
  it("puts only the rows in view (plus a margin) in the DOM, on the first render, for a 20,000-span trace", () => {
    const html = render(spans(20_000));
    const tops = rowTops(html);
    // 560 px / 26 px rows = 22 rows in view, plus 12 overscan below: all 20,000 would freeze the tab.
    expect(tops.length, "rows rendered for a 560 px grid").toBeGreaterThanOrEqual(22);
    expect(tops.length, "rows rendered for a 560 px grid").toBeLessThanOrEqual(40);
    expect(tops, "rows stacked from the top, 26 px apart").toEqual(tops.map((_, i) => i * 26));
    expect(html, "the scroll area is as tall as every row").toContain(`height:${20_000 * 26}px`);
    expect(html).toContain('aria-rowcount="20000"');
    expect(html).toContain('data-span-count="20000"');
  });

  it("renders more rows for a taller grid, and every row of a short trace", () => {
    expect(rowTops(render(spans(20_000), 1300)).length).toBeGreaterThan(rowTops(render(spans(20_000))).length + 20);
    expect(rowTops(render(spans(5))).length).toBe(5);
  });
});

describe("a run waiting for follow-ups", () => {
  const t0 = Date.parse("2026-01-01T10:00:00Z");
  const times = { startMs: t0, endMs: t0 + 280 };
  const root: TraceSpanView = { id: "s0", parentId: null, kind: "run", name: "help-desk", status: "ok", runId: RUN, startMs: t0, endMs: t0 + 280 };
  const call: TraceSpanView = { id: "s1", parentId: "s0", kind: "inference", name: "demo/echo", status: "ok", runId: RUN, startMs: t0 + 10, endMs: t0 + 270 };
  const window: TraceSpanView = { id: "s2", parentId: "s0", kind: "timer", name: "follow-up window", status: "running", runId: RUN, startMs: t0 + 281, endMs: null, attributes: { timer: "follow_up_window", deadline: new Date(t0 + 3_600_000).toISOString() } };

  function renderRun(withTimes: boolean): string {
    const all = [root, call, window];
    const props: WaterfallProps = {
      rootRunId: RUN,
      rootAgent: "help-desk",
      indexes: new Map<string, SpanIndex>([[RUN, indexSpans(all)]]),
      allSpans: all,
      state: STATE,
      onToggleCollapse: () => {},
      onToggleSubRun: () => {},
      selectedKey: null,
      onSelect: () => {},
      markers: [],
      ...(withTimes ? { runTimes: times } : {}),
      zoom: [0, 1],
      onZoom: () => {},
      loadingSubRuns: new Set(),
    };
    return renderToStaticMarkup(createElement(Waterfall, props));
  }

  it("the root bar says the run's duration and the axis ends at the answer; the window says until when", () => {
    const html = renderRun(true);
    expect(html).toContain('aria-label="run help-desk, 280 ms"');
    expect(html, "the axis ends at the answer").toContain("+280 ms");
    expect(html).toMatch(/data-testid="span-follow-up-window"[^>]*>open for follow-ups until [^<]+, \d{2}:\d{2}:\d{2}</);
  });
});

describe("the pane and its labels", () => {
  it("is as tall as its rows, up to the largest height (no empty box under a short trace)", () => {
    expect(render(spans(5))).toMatch(/role="grid"[^>]*style="height:130px"/);
    expect(render(spans(20_000))).toMatch(/role="grid"[^>]*style="height:560px"/);
  });

  it("breaks an approval wait out of the axis, saying how long, and gives every bar its whole duration", () => {
    const t0 = Date.parse("2026-01-01T10:00:00Z");
    const all: TraceSpanView[] = [
      { id: "s0", parentId: null, kind: "run", name: "treasury", status: "ok", runId: RUN, startMs: t0, endMs: t0 + 240_600 },
      { id: "s1", parentId: "s0", kind: "inference", name: "demo/treasury", status: "ok", runId: RUN, startMs: t0, endMs: t0 + 470 },
      { id: "s2", parentId: "s0", kind: "tool", name: "ledger_transfer", status: "ok", runId: RUN, startMs: t0 + 470, endMs: t0 + 240_500 },
      { id: "s3", parentId: "s2", kind: "approval_wait", name: "ledger_transfer", status: "ok", runId: RUN, startMs: t0 + 480, endMs: t0 + 240_480 },
      { id: "s4", parentId: "s0", kind: "inference", name: "demo/treasury", status: "ok", runId: RUN, startMs: t0 + 240_500, endMs: t0 + 240_600 },
    ];
    const html = render(all);
    expect(html).toMatch(/data-testid="axis-break"[^>]*>⋯ 4 min waiting for approval</);
    const durations = [...html.matchAll(/data-testid="bar-duration"[^>]*>([^<]+)</g)].map((m) => m[1]);
    expect(durations, "one per row, whole: never '470 m'").toEqual(["4 min 1 s", "470 ms", "4 min", "4 min", "100 ms"]);
  });
});
