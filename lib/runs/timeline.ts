// The trace timeline's model, pure so it is tested without a browser: which
// rows are visible (collapsed spans, sub-runs expanded inline, agents folded,
// search) and the time scale, where long idle gaps are compressed so a run
// that waited an hour for an approval still shows its work readably.
import type { TraceSpanView } from "./schemas";

export interface TimelineRow {
  /** `<runId>/<spanId>`: unique across the run and its expanded sub-runs. */
  key: string;
  span: TraceSpanView;
  depth: number;
  hasChildren: boolean;
  /** The child run a sub_agent span opens, when it has one. */
  subRunId: string | null;
  agent: string;
  matched: boolean;
}

export interface TimelineState {
  collapsed: ReadonlySet<string>;
  expandedSubRuns: ReadonlySet<string>;
  foldedAgents: ReadonlySet<string>;
  search: string;
}

export interface SpanIndex {
  children: Map<string, TraceSpanView[]>;
  roots: TraceSpanView[];
}

/** Children by parent id (spans already in start order stay in start order). */
export function indexSpans(spans: readonly TraceSpanView[]): SpanIndex {
  const ids = new Set(spans.map((s) => s.id));
  const children = new Map<string, TraceSpanView[]>();
  const roots: TraceSpanView[] = [];
  for (const span of spans) {
    if (span.parentId && ids.has(span.parentId)) {
      const list = children.get(span.parentId);
      if (list) list.push(span);
      else children.set(span.parentId, [span]);
    } else roots.push(span);
  }
  return { children, roots };
}

/** Text a search matches against: kind, name, status and attributes. */
export function spanText(span: TraceSpanView): string {
  const attrs = span.attributes ? Object.entries(span.attributes).map(([k, v]) => `${k}=${String(v)}`).join(" ") : "";
  return `${span.kind} ${span.name} ${span.status} ${attrs}`.toLowerCase();
}

/** The run a sub-agent span opens: a sub-agent conversation (`conversationId`) or the child a router chose (`childRunId`); null for other spans. */
export function subRunIdOf(span: Pick<TraceSpanView, "kind" | "attributes">): string | null {
  if (span.kind !== "sub_agent") return null;
  const id = span.attributes?.conversationId ?? span.attributes?.childRunId;
  return typeof id === "string" ? id : null;
}

/**
 * The visible rows, depth first. A sub_agent span with an expanded sub-run
 * continues with that run's spans; a folded agent's sub-runs stay closed.
 * With a search, only matching rows and their ancestors remain.
 */
export function visibleRows(rootRunId: string, indexes: ReadonlyMap<string, SpanIndex>, state: TimelineState, rootAgent: string): TimelineRow[] {
  const query = state.search.trim().toLowerCase();
  const rows: TimelineRow[] = [];
  const walk = (runId: string, spans: readonly TraceSpanView[], depth: number, agent: string, seenRuns: ReadonlySet<string>): boolean => {
    let anyMatch = false;
    const index = indexes.get(runId);
    if (!index) return false;
    for (const span of spans) {
      const key = `${runId}/${span.id}`;
      const subRunId = subRunIdOf(span);
      const kids = index.children.get(span.id) ?? [];
      const subRunOpen = subRunId !== null && state.expandedSubRuns.has(subRunId) && !state.foldedAgents.has(span.name) && !seenRuns.has(subRunId);
      const hasChildren = kids.length > 0 || subRunId !== null;
      const matched = query.length > 0 && spanText(span).includes(query);
      const at = rows.length;
      rows.push({ key, span, depth, hasChildren, subRunId, agent, matched });
      let childMatch = false;
      // While searching, collapsed rows still reveal matches below them.
      if (!state.collapsed.has(key) || query) {
        childMatch = walk(runId, kids, depth + 1, agent, seenRuns);
        if (subRunOpen && subRunId) {
          const sub = indexes.get(subRunId);
          if (sub) childMatch = walk(subRunId, sub.roots, depth + 1, span.name, new Set([...seenRuns, subRunId])) || childMatch;
        }
      }
      if (query && !matched && !childMatch) rows.length = at;
      anyMatch = anyMatch || matched || childMatch;
    }
    return anyMatch;
  };
  const root = indexes.get(rootRunId);
  if (root) walk(rootRunId, root.roots, 0, rootAgent, new Set([rootRunId]));
  return rows;
}

export interface Gap {
  start: number;
  end: number;
}

export interface TimeScale {
  start: number;
  end: number;
  gaps: Gap[];
  /** Maps a time (ms) to a fraction of the width, 0..1. */
  toFraction(t: number): number;
}

/** A gap wider than this share of the run and than `minGapMs` is drawn narrow. */
const GAP_SHARE = 0.15;
const GAP_WIDTH = 0.03;

/**
 * A time scale over [start, end] in which idle stretches (no span other than
 * run, iteration or a wait — approval or timer — running) longer than `minGapMs` and 15% of
 * the range take 3% of the width each.
 */
export function timeScale(spans: readonly TraceSpanView[], start: number, end: number, minGapMs = 5000): TimeScale {
  const span = Math.max(1, end - start);
  const busy = spans
    .filter((s) => s.kind !== "run" && s.kind !== "iteration" && s.kind !== "approval_wait" && s.kind !== "timer")
    .map((s) => ({ start: s.startMs, end: s.endMs ?? end }))
    .sort((a, b) => a.start - b.start);
  const gaps: Gap[] = [];
  let cursor = start;
  for (const b of busy) {
    if (b.start - cursor > Math.max(minGapMs, span * GAP_SHARE)) gaps.push({ start: cursor, end: b.start });
    cursor = Math.max(cursor, b.end);
  }
  if (busy.length && end - cursor > Math.max(minGapMs, span * GAP_SHARE)) gaps.push({ start: cursor, end });
  const gapTime = gaps.reduce((sum, g) => sum + (g.end - g.start), 0);
  const busyShare = 1 - gaps.length * GAP_WIDTH;
  const busyTime = Math.max(1, span - gapTime);
  const toFraction = (t: number): number => {
    const clamped = Math.min(end, Math.max(start, t));
    let x = 0;
    let from = start;
    for (const g of gaps) {
      if (clamped <= g.start) break;
      x += ((g.start - from) / busyTime) * busyShare;
      if (clamped < g.end) return x + ((clamped - g.start) / (g.end - g.start)) * GAP_WIDTH;
      x += GAP_WIDTH;
      from = g.end;
    }
    return Math.min(1, x + ((clamped - from) / busyTime) * busyShare);
  };
  return gaps.length ? { start, end, gaps, toFraction } : { start, end, gaps, toFraction: (t) => (Math.min(end, Math.max(start, t)) - start) / span };
}
