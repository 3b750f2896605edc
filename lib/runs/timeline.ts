// The trace timeline's model, pure so it is tested without a browser: which
// rows are visible (collapsed spans, sub-runs expanded inline, agents folded,
// search). The time axis they are drawn on is ./time-axis.ts.
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
