// A node just added must be where the user can see and reach it. "+ Agent"
// places a new agent beside the selected one, which can be past the pane's
// edge; half a node off-screen cannot be read, and a link dragged to its handle
// ends inside React Flow's auto-pan band (40 px from the pane's edge), where the
// canvas scrolls away under the pointer (seen as a drag that drew no link).
// viewportRevealing says whether a node is in view whole (and the least pan
// that would make it so); the hook fits the view when it is not.
import { useCallback, useEffect, useMemo, useState } from "react";
import { useReactFlow, type Viewport } from "@xyflow/react";

/** Clear of React Flow's auto-pan band (40 px), so a drag to the node's handle does not scroll the canvas. */
export const REVEAL_MARGIN = 56;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The viewport that shows `node` (flow coordinates) inside a pane of `pane` size with `margin` on every side,
 * panned as little as possible and never zoomed; the same viewport when it is already in view. A node larger
 * than the pane is aligned by its top-left corner.
 */
export function viewportRevealing(node: Rect, viewport: Viewport, pane: { width: number; height: number }, margin = REVEAL_MARGIN): Viewport {
  const shift = (start: number, size: number, paneSize: number): number => {
    const screenStart = start * viewport.zoom;
    const screenEnd = screenStart + size * viewport.zoom;
    if (screenEnd - screenStart > paneSize - 2 * margin) return margin - screenStart;
    if (screenStart < margin) return margin - screenStart;
    if (screenEnd > paneSize - margin) return paneSize - margin - screenEnd;
    return 0;
  };
  const x = shift(node.x + viewport.x / viewport.zoom, node.width, pane.width);
  const y = shift(node.y + viewport.y / viewport.zoom, node.height, pane.height);
  return x === 0 && y === 0 ? viewport : { x: viewport.x + x, y: viewport.y + y, zoom: viewport.zoom };
}

/**
 * How long to wait for a new node to be rendered and measured before giving up on revealing it. A time, not a
 * count of frames: on a loaded machine 30 frames (about half a second) passed before React Flow had measured the
 * node, the reveal gave up, and the agent stayed half past the pane's edge (npm test, e2e designer-run).
 */
const REVEAL_PATIENCE_MS = 5_000;
/** Fits made at most, and how long after one the next may be made (one that left the node out is made again). */
const MAX_FITS = 4;
const REFIT_AFTER_MS = 200;

/**
 * `reveal(position, alongside)`: once the node placed at that flow position is rendered and measured, and only
 * when it is not already in view whole, fit the view to it, the nodes in view whole and the nodes `alongside`
 * (the agent it was placed beside or attached to), never zooming in: panning to the new node alone pushed the
 * agent the user reached for next off-screen (e2e designer-run).
 */
export function useRevealPlacedNode(paneSelector = ".react-flow"): {
  reveal: (position: { x: number; y: number }, alongside?: readonly string[]) => void;
  /** The user took the view over (Fit view, auto-layout): a pending reveal must not fit after them and move what they are reaching for. */
  cancel: () => void;
} {
  const flow = useReactFlow();
  const [pending, setPending] = useState<{ x: number; y: number; alongside: readonly string[] } | null>(null);

  useEffect(() => {
    if (!pending) return;
    const started = performance.now();
    let handle = 0;
    let fits = 0;
    let lastFit = -Infinity;
    const attempt = () => {
      const now = performance.now();
      // Found by where it was placed, not by id: the user may rename it (a new id) while it appears.
      const placed = flow.getNodes().find((n) => n.position.x === pending.x && n.position.y === pending.y);
      const size = placed ? flow.getInternalNode(placed.id)?.measured : undefined;
      const pane = document.querySelector(paneSelector)?.getBoundingClientRect();
      if (placed && size?.width && size.height && pane) {
        const viewport = flow.getViewport();
        if (viewportRevealing({ ...placed.position, width: size.width, height: size.height }, viewport, pane) === viewport) {
          setPending(null);
          return;
        }
        // Not in view whole (yet): fit, then look again on the next frames. React Flow resolves a fit at its next
        // node update and fits the nodes it names by id; when the node was renamed in between (the e2e test types
        // its name at once), the fit left it out and centred the others, with the new agent past the pane's edge.
        if (fits < MAX_FITS && now - lastFit >= REFIT_AFTER_MS) {
          fits += 1;
          lastFit = now;
          // With every node the user could see whole, and the one it was placed beside: nothing they were looking at leaves the view.
          const inView = flow.getNodes().filter((n) => {
            const measured = flow.getInternalNode(n.id)?.measured;
            return n.id !== placed.id && measured?.width && measured.height && viewportRevealing({ ...n.position, width: measured.width, height: measured.height }, viewport, pane, 0) === viewport;
          });
          const ids = [...new Set([placed.id, ...inView.map((n) => n.id), ...pending.alongside.filter((id) => flow.getInternalNode(id))])];
          void flow.fitView({ nodes: ids.map((id) => ({ id })), padding: `${REVEAL_MARGIN}px`, maxZoom: viewport.zoom, duration: 0 });
        }
      }
      if (now - started < REVEAL_PATIENCE_MS) handle = window.requestAnimationFrame(attempt);
      else setPending(null);
    };
    handle = window.requestAnimationFrame(attempt);
    return () => window.cancelAnimationFrame(handle);
  }, [pending, flow, paneSelector]);

  const reveal = useCallback((position: { x: number; y: number }, alongside: readonly string[] = []) => setPending({ x: position.x, y: position.y, alongside }), []);
  const cancel = useCallback(() => setPending(null), []);
  return useMemo(() => ({ reveal, cancel }), [reveal, cancel]);
}
