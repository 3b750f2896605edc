import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { restoreTypecheckState, savedTypecheckState, saveTypecheckState, TYPECHECK_STATE } from "./typecheck-state";

function dirs() {
  const base = mkdtempSync(path.join(os.tmpdir(), "typecheck-state-"));
  const clone = path.join(base, "clone");
  const cache = path.join(base, "cache");
  mkdirSync(clone);
  return { clone, cache };
}

describe("typecheck state", () => {
  it("starts from nothing when neither the checkout nor the cache has a state", () => {
    const { clone, cache } = dirs();
    expect(restoreTypecheckState(clone, cache)).toBe(false);
    expect(existsSync(path.join(clone, TYPECHECK_STATE))).toBe(false);
  });

  it("saves a passing run's state and gives it to the next clone", () => {
    const first = dirs();
    mkdirSync(path.dirname(path.join(first.clone, TYPECHECK_STATE)), { recursive: true });
    writeFileSync(path.join(first.clone, TYPECHECK_STATE), '{"version":"5.9.3"}');
    saveTypecheckState(first.clone, first.cache);
    expect(readFileSync(savedTypecheckState(first.cache), "utf8")).toBe('{"version":"5.9.3"}');
    expect(readdirSync(path.dirname(savedTypecheckState(first.cache))), "no partial file left").toEqual(["tsconfig.tsbuildinfo"]);

    const next = path.join(path.dirname(first.clone), "next");
    mkdirSync(next);
    expect(restoreTypecheckState(next, first.cache)).toBe(true);
    expect(readFileSync(path.join(next, TYPECHECK_STATE), "utf8")).toBe('{"version":"5.9.3"}');
  });

  it("keeps a checkout's own state rather than the cache's", () => {
    const { clone, cache } = dirs();
    mkdirSync(path.dirname(savedTypecheckState(cache)), { recursive: true });
    writeFileSync(savedTypecheckState(cache), "cached");
    mkdirSync(path.dirname(path.join(clone, TYPECHECK_STATE)), { recursive: true });
    writeFileSync(path.join(clone, TYPECHECK_STATE), "own");
    expect(restoreTypecheckState(clone, cache)).toBe(true);
    expect(readFileSync(path.join(clone, TYPECHECK_STATE), "utf8")).toBe("own");
  });
});
