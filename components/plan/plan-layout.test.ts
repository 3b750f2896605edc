import { describe, expect, it } from "vitest";
import { fittedViewport, layoutPlan, PLAN_NODE_SIZE } from "./plan-layout";

describe("layoutPlan", () => {
  it("lays dependencies out to the left of the nodes that need them, parallel nodes one above the other", () => {
    const at = layoutPlan(["flights", "hotels", "itinerary"], [
      { source: "flights", target: "itinerary" },
      { source: "hotels", target: "itinerary" },
    ]);
    const [flights, hotels, itinerary] = ["flights", "hotels", "itinerary"].map((id) => at.get(id)!);
    expect(flights!.x).toBe(hotels!.x);
    expect(Math.abs(flights!.y - hotels!.y), "the researchers do not overlap").toBeGreaterThanOrEqual(PLAN_NODE_SIZE.height);
    expect(itinerary!.x, "the itinerary is to the right of both").toBeGreaterThan(flights!.x + PLAN_NODE_SIZE.width);
  });

  it("places every node of a 500-node chain, each to the right of the one before", () => {
    const ids = Array.from({ length: 500 }, (_, i) => `n${i}`);
    const at = layoutPlan(ids, ids.slice(1).map((id, i) => ({ source: `n${i}`, target: id })));
    expect(at.size).toBe(500);
    expect(ids.slice(1).every((id, i) => at.get(id)!.x > at.get(`n${i}`)!.x)).toBe(true);
  });
});

describe("fittedViewport", () => {
  it("never zooms past 100 % and centres a small plan", () => {
    const view = fittedViewport(new Map([["a", { x: 0, y: 0 }]]), 1000, 400);
    expect(view.zoom).toBe(1);
    expect(view.x).toBe((1000 - PLAN_NODE_SIZE.width) / 2);
    expect(view.y).toBe((400 - PLAN_NODE_SIZE.height) / 2);
  });

  it("zooms a wide plan out until all of it fits", () => {
    const positions = new Map(Array.from({ length: 40 }, (_, i) => [`n${i}`, { x: i * 300, y: 0 }] as const));
    const view = fittedViewport(positions, 1000, 400);
    const right = view.x + (39 * 300 + PLAN_NODE_SIZE.width) * view.zoom;
    expect(view.zoom).toBeLessThan(0.1);
    expect(view.x).toBeGreaterThan(0);
    expect(right, "the last node ends inside the canvas").toBeLessThan(1000);
  });
});
