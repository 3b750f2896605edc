import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { e2eShuffleSeed, shuffleArgs } from "./e2e-order";

describe("the e2e files' shuffled order", () => {
  it("repeats a given seed and draws a new one otherwise", () => {
    expect(e2eShuffleSeed({ E2E_SHUFFLE_SEED: " 123456 " }), "a seed from the banner repeats that run").toBe("123456");
    const drawn = e2eShuffleSeed({});
    expect(drawn, "a fresh seed is a whole number").toMatch(/^[1-9]\d{0,8}$/);
    expect(shuffleArgs(drawn)).toEqual([`--shuffle=${drawn}`]);
  });

  it("refuses a seed that is no number, naming the variable", () => {
    expect(() => e2eShuffleSeed({ E2E_SHUFFLE_SEED: "yesterday" })).toThrow(/E2E_SHUFFLE_SEED must be a whole number/);
  });

  it("is an option the installed Playwright has (an older one would refuse the flag)", () => {
    const help = execFileSync(path.join(import.meta.dirname, "../../node_modules/.bin/playwright"), ["test", "--help"], { encoding: "utf8" });
    expect(help).toContain("--shuffle [seed]");
  });
});
