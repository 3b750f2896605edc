// The Phoenix pin: the version npm test installs and the constraints pip installs it with must agree, and the
// cache folder must change whenever what gets installed changes (else a clone reuses another's install).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PHOENIX_CONSTRAINTS, PHOENIX_VERSION, phoenixCacheKey } from "./phoenix";

const pins = readFileSync(PHOENIX_CONSTRAINTS, "utf8")
  .split("\n")
  .filter((line) => line.trim() && !line.startsWith("#"));

describe("the Phoenix pin", () => {
  it("pins arize-phoenix at PHOENIX_VERSION and every other package at one exact version", () => {
    expect(pins, "the constraints name arize-phoenix at the version the code installs").toContain(`arize-phoenix==${PHOENIX_VERSION}`);
    const loose = pins.filter((line) => !/^[a-z0-9][a-z0-9._-]*==[^=<>!~*\s]+$/.test(line));
    expect(loose, "each line is `name==version`: a range would let two clones resolve differently").toEqual([]);
    const names = pins.map((line) => line.split("==")[0]);
    expect(names.length, "no package is pinned twice").toBe(new Set(names).size);
  });

  it("keys the cache by Phoenix's version, the Python version and the constraints' content", () => {
    const constraints = readFileSync(PHOENIX_CONSTRAINTS, "utf8");
    const key = phoenixCacheKey("3.11", constraints);
    expect(key).toMatch(new RegExp(`^phoenix-${PHOENIX_VERSION.replaceAll(".", "\\.")}-py3\\.11-[0-9a-f]{8}$`));
    expect(phoenixCacheKey("3.12", constraints), "another Python, another venv").not.toBe(key);
    expect(phoenixCacheKey("3.11", `${constraints}numpy==0.0.1\n`), "other pins, another install").not.toBe(key);
    expect(phoenixCacheKey("3.11", constraints), "the same inputs find the same install").toBe(key);
    const reordered = `# another comment\n${constraints.split("\n").reverse().join("\n")}`;
    expect(phoenixCacheKey("3.11", reordered), "comments and the order of the pins change nothing installed").toBe(key);
  });
});
