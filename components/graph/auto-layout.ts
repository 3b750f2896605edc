// Auto-layout with dagre: sub-agents below their parent, tools below their agents.
import dagre from "@dagrejs/dagre";
import type { Point } from "@/lib/agents/graph-edit";

export const NODE_SIZE = { agent: { width: 220, height: 96 }, tool: { width: 170, height: 44 }, mcp: { width: 200, height: 80 } } as const;

export interface LayoutNode {
  id: string;
  kind: keyof typeof NODE_SIZE;
}

/** Top-left positions (React Flow's origin) for every node. */
export function layoutPositions(nodes: readonly LayoutNode[], edges: readonly { source: string; target: string }[]): Record<string, Point> {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: "TB", nodesep: 40, ranksep: 70, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) g.setNode(n.id, { ...NODE_SIZE[n.kind] });
  for (const e of edges) if (g.hasNode(e.source) && g.hasNode(e.target)) g.setEdge(e.source, e.target);
  dagre.layout(g);
  const positions: Record<string, Point> = {};
  for (const n of nodes) {
    const placed = g.node(n.id);
    const size = NODE_SIZE[n.kind];
    positions[n.id] = { x: Math.round(placed.x - size.width / 2), y: Math.round(placed.y - size.height / 2) };
  }
  return positions;
}
