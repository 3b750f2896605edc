import { describe, expect, it } from "vitest";
import { REVEAL_MARGIN, viewportRevealing } from "./reveal-node";

const pane = { width: 512, height: 626 };

describe("viewportRevealing", () => {
  it("leaves the view alone when the node is already in view with a margin", () => {
    const viewport = { x: 0, y: 0, zoom: 1 };
    expect(viewportRevealing({ x: 100, y: 100, width: 200, height: 80 }, viewport, pane)).toBe(viewport);
  });

  it("pans a node past the right edge left, just clear of the auto-pan band, and keeps the zoom", () => {
    // The designer's case: a new agent beside the selected one at x 510 of a 512 px pane.
    const next = viewportRevealing({ x: 500, y: 300, width: 240, height: 90 }, { x: 10, y: 4, zoom: 1 }, pane);
    expect(next.zoom).toBe(1);
    expect(500 + 240 + next.x, "its right edge on screen").toBe(pane.width - REVEAL_MARGIN);
    expect(next.y, "no vertical move").toBe(4);
  });

  it("pans a node above or left of the pane into view at a zoom other than 1", () => {
    const next = viewportRevealing({ x: -400, y: -300, width: 200, height: 100 }, { x: 0, y: 0, zoom: 0.5 }, pane);
    expect(-400 * 0.5 + next.x).toBe(REVEAL_MARGIN);
    expect(-300 * 0.5 + next.y).toBe(REVEAL_MARGIN);
    expect(next.zoom).toBe(0.5);
  });

  it("aligns a node larger than the pane by its top-left corner", () => {
    const next = viewportRevealing({ x: 0, y: 0, width: 2000, height: 50 }, { x: -900, y: 0, zoom: 1 }, pane);
    expect(next.x).toBe(REVEAL_MARGIN);
  });
});
