// Where the designer puts a node it adds: the free place nearest to where the
// user asked (beside the selection, the view's centre, or a drop point), so a
// new node never lands on another — before, "+ Agent" stacked each new agent
// on the last, over the entry agent, until Auto-layout (issue 25 §3).
import type { NodeId, Point } from "./graph-edit";

/** The boxes nodes take on the canvas (components/graph/nodes.tsx), with room for badges and a long name. */
const BOX = { width: 240, height: 130 } as const;
const GAP = 24;

function overlaps(a: Point, b: Point): boolean {
  return Math.abs(a.x - b.x) < BOX.width + GAP && Math.abs(a.y - b.y) < BOX.height + GAP;
}

/**
 * The first free spot of a ring search around `near`: `near` itself, then the
 * places one box-step away (right, below, left, above and the diagonals), then
 * two steps away, and so on — so the result is as close to `near` as the canvas
 * allows, and deterministic.
 */
export function freeSpot(taken: Readonly<Record<NodeId, Point>>, near: Point): Point {
  const boxes = Object.values(taken);
  const free = (p: Point) => !boxes.some((b) => overlaps(p, b));
  if (free(near)) return near;
  const stepX = BOX.width + GAP;
  const stepY = BOX.height + GAP;
  for (let ring = 1; ring <= 50; ring++) {
    const steps: { dx: number; dy: number }[] = [];
    for (let dy = -ring; dy <= ring; dy++) for (let dx = -ring; dx <= ring; dx++) if (Math.max(Math.abs(dx), Math.abs(dy)) === ring) steps.push({ dx, dy });
    // Nearest in box-steps first; on a tie, to the right before below before left before above.
    steps.sort((a, b) => Math.hypot(a.dx, a.dy) - Math.hypot(b.dx, b.dy) || b.dx - a.dx || b.dy - a.dy);
    const spot = steps.map(({ dx, dy }) => ({ x: near.x + dx * stepX, y: near.y + dy * stepY })).find(free);
    if (spot) return spot;
  }
  // A canvas this full has no ring left near `near`: below everything.
  return { x: near.x, y: Math.max(...boxes.map((b) => b.y)) + stepY };
}
