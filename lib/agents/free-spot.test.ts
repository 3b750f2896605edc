import { describe, expect, it } from "vitest";
import { freeSpot } from "./free-spot";
import type { Point } from "./graph-edit";

const overlapping = (a: Point, b: Point) => Math.abs(a.x - b.x) < 240 && Math.abs(a.y - b.y) < 130;

describe("where the designer puts a new node", () => {
  it("takes the asked point when it is free", () => {
    expect(freeSpot({ "agent:main": { x: 0, y: 0 } }, { x: 600, y: 0 })).toEqual({ x: 600, y: 0 });
  });

  it("never lands on another node: twenty agents added at the same point all get places of their own, near it", () => {
    const taken: Record<string, Point> = { "agent:main": { x: 0, y: 0 } };
    for (let i = 0; i < 20; i++) taken[`agent:a${i}`] = freeSpot(taken, { x: 0, y: 0 });
    const spots = Object.values(taken);
    for (let i = 0; i < spots.length; i++) for (let j = i + 1; j < spots.length; j++) expect(overlapping(spots[i]!, spots[j]!), `${JSON.stringify(spots[i])} and ${JSON.stringify(spots[j])}`).toBe(false);
    // Within three rings of the asked point.
    expect(spots.every((p) => Math.abs(p.x) <= 3 * 264 && Math.abs(p.y) <= 3 * 154)).toBe(true);
  });

  it("a point on the entry agent goes to the nearest free place, to its right first", () => {
    expect(freeSpot({ "agent:main": { x: 100, y: 100 } }, { x: 110, y: 105 })).toEqual({ x: 110 + 264, y: 105 });
  });
});
