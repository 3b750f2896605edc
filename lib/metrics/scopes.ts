// Which rows of metric_rollups answer a read. Every observation is written once
// per scope: the full cube (every dimension) and five projections that keep one
// dimension (graph with version, model, tool, starter) or none. A read takes the
// smallest scope holding every dimension it filters or breaks down by, so an
// unfiltered 30-day chart sums one row per series, label, hour and bin, and a
// chart by graph one per graph more — not one per combination of all five.
import type { MetricBreakdown, MetricFilters } from "./schemas";

type Dimension = "graph" | "version" | "model" | "tool" | "starter";

export const ROLLUP_SCOPES = {
  none: { id: 0, keeps: [] },
  cube: { id: 1, keeps: ["graph", "version", "model", "tool", "starter"] },
  graph: { id: 2, keeps: ["graph", "version"] },
  model: { id: 3, keeps: ["model"] },
  tool: { id: 4, keeps: ["tool"] },
  starter: { id: 5, keeps: ["starter"] },
} as const satisfies Record<string, { id: number; keeps: readonly Dimension[] }>;

export type RollupScopeId = (typeof ROLLUP_SCOPES)[keyof typeof ROLLUP_SCOPES]["id"];

/** Smallest first: the first scope that keeps every needed dimension is read. */
const BY_SIZE = [ROLLUP_SCOPES.none, ROLLUP_SCOPES.graph, ROLLUP_SCOPES.model, ROLLUP_SCOPES.tool, ROLLUP_SCOPES.starter, ROLLUP_SCOPES.cube];

const FILTER_DIMENSION: Record<keyof MetricFilters, Dimension> = { graph: "graph", version: "version", model: "model", tool: "tool", startedBy: "starter" };

/** The scope a read with these filters and this breakdown sums. */
export function scopeFor(filters: MetricFilters, breakdown: MetricBreakdown): RollupScopeId {
  const needed = new Set<Dimension>();
  for (const [name, value] of Object.entries(filters) as [keyof MetricFilters, unknown][]) if (value !== undefined) needed.add(FILTER_DIMENSION[name]);
  if (breakdown !== "none" && breakdown !== "label") needed.add(breakdown);
  const scope = BY_SIZE.find((candidate) => [...needed].every((dimension) => (candidate.keeps as readonly Dimension[]).includes(dimension)));
  return (scope ?? ROLLUP_SCOPES.cube).id;
}
