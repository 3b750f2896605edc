// Left-to-right layout of a plan's DAG with dagre: dependencies on the left,
// the nodes that need them to their right, and the viewport that fits it.
// Pure (no React), so the bench times exactly what the run page runs.
import dagre from "@dagrejs/dagre";

export const PLAN_NODE_SIZE = { width: 240, height: 112 } as const;

/**
 * Above this many nodes, ranks come from the longest path instead of dagre's
 * network simplex: on a layered 500-node plan network simplex took 2.5 s of a
 * 1.5 s budget, longest path about 0.5 s (bench/plan-dag-view.ts); small plans
 * keep the tighter ranking.
 */
export const NETWORK_SIMPLEX_MAX_NODES = 100;

/** Top-left positions (React Flow's origin) for every node id. */
export function layoutPlan(nodeIds: readonly string[], edges: readonly { source: string; target: string }[]): Map<string, { x: number; y: number }> {
  const g = new dagre.graphlib.Graph();
  const ranker = nodeIds.length > NETWORK_SIMPLEX_MAX_NODES ? "longest-path" : "network-simplex";
  g.setGraph({ rankdir: "LR", nodesep: 24, ranksep: 64, marginx: 16, marginy: 16, ranker });
  g.setDefaultEdgeLabel(() => ({}));
  for (const id of nodeIds) g.setNode(id, { ...PLAN_NODE_SIZE });
  for (const e of edges) if (g.hasNode(e.source) && g.hasNode(e.target)) g.setEdge(e.source, e.target);
  dagre.layout(g);
  const positions = new Map<string, { x: number; y: number }>();
  for (const id of nodeIds) {
    const placed = g.node(id);
    positions.set(id, { x: Math.round(placed.x - PLAN_NODE_SIZE.width / 2), y: Math.round(placed.y - PLAN_NODE_SIZE.height / 2) });
  }
  return positions;
}

const FIT_PADDING = 0.08;
export const MIN_ZOOM = 0.05;

/**
 * The viewport that shows the whole plan (like fitView, never past 100 %),
 * computed from the layout: the first render is already at its final zoom,
 * instead of rendering every card at 100 % and again once fitted.
 */
export function fittedViewport(positions: ReadonlyMap<string, { x: number; y: number }>, width: number, height: number): { x: number; y: number; zoom: number } {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const { x, y } of positions.values()) {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x + PLAN_NODE_SIZE.width);
    maxY = Math.max(maxY, y + PLAN_NODE_SIZE.height);
  }
  if (!Number.isFinite(minX)) return { x: 0, y: 0, zoom: 1 };
  const boundsWidth = maxX - minX;
  const boundsHeight = maxY - minY;
  const zoom = Math.max(MIN_ZOOM, Math.min(1, (width * (1 - 2 * FIT_PADDING)) / boundsWidth, (height * (1 - 2 * FIT_PADDING)) / boundsHeight));
  return { x: (width - boundsWidth * zoom) / 2 - minX * zoom, y: (height - boundsHeight * zoom) / 2 - minY * zoom, zoom };
}
