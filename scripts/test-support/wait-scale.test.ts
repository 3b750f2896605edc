import { afterEach, describe, expect, it } from "vitest";
import { scaledWait, WAIT_SCALE_ENV, waitScale, waitScaleFor, WAITS_SET_AT_MS } from "./wait-scale";

const saved = process.env[WAIT_SCALE_ENV];
afterEach(() => {
  if (saved === undefined) delete process.env[WAIT_SCALE_ENV];
  else process.env[WAIT_SCALE_ENV] = saved;
});

describe("hang detectors on a slow machine", () => {
  it("waits as written on the machines the waits were set on or faster, longer on slower ones, at most 3×", () => {
    expect(waitScaleFor(WAITS_SET_AT_MS / 2)).toBe(1);
    expect(waitScaleFor(WAITS_SET_AT_MS)).toBe(1);
    expect(waitScaleFor(WAITS_SET_AT_MS * 2)).toBe(2);
    expect(waitScaleFor(WAITS_SET_AT_MS * 1.53)).toBe(1.5);
    expect(waitScaleFor(WAITS_SET_AT_MS * 10)).toBe(3);
  });

  it("takes npm test's factor from the environment, and ignores one that is not a number ≥ 1", () => {
    process.env[WAIT_SCALE_ENV] = "2";
    expect(waitScale()).toBe(2);
    expect(scaledWait(20_000)).toBe(40_000);
    process.env[WAIT_SCALE_ENV] = "9";
    expect(waitScale()).toBe(3);
    for (const bad of ["0.5", "fast", ""]) {
      process.env[WAIT_SCALE_ENV] = bad;
      expect(waitScale()).toBe(1);
    }
    delete process.env[WAIT_SCALE_ENV];
    expect(scaledWait(20_000)).toBe(20_000);
  });
});
