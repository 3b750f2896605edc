import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dealToLanes, e2eSpecFiles, exactFileFilters, loadE2eFileSeconds, saveE2eFileSeconds } from "./e2e-lanes";

describe("dealing e2e files to lanes", () => {
  it("balances the lanes by duration, longest first, counting the second lane's late start", () => {
    const seconds = { "e2e/a.spec.ts": 30, "e2e/b.spec.ts": 20, "e2e/c.spec.ts": 20, "e2e/d.spec.ts": 10, "e2e/e.spec.ts": 10, "e2e/f.spec.ts": 5 };
    const dealt = dealToLanes(Object.keys(seconds), seconds, [0, 10]);
    expect(dealt).not.toBeNull();
    // Every file once, in exactly one lane.
    expect([...(dealt?.lanes[0] ?? []), ...(dealt?.lanes[1] ?? [])].sort()).toEqual(Object.keys(seconds));
    // 95 s of tests and a 10 s head start: lanes of 50 and 55 at best; a count split (3 + 3) gives 70 against 35.
    expect(Math.max(...(dealt?.expectedSeconds ?? []))).toBeLessThanOrEqual(55);
    expect(dealt?.lanes[0]).toEqual(["e2e/a.spec.ts", "e2e/c.spec.ts", "e2e/f.spec.ts"]);
  });

  it("counts a new file as the median of the known ones, and gives up (null) when most files are unknown", () => {
    const dealt = dealToLanes(["e2e/a.spec.ts", "e2e/b.spec.ts", "e2e/new.spec.ts"], { "e2e/a.spec.ts": 40, "e2e/b.spec.ts": 10 }, [0, 0]);
    expect(dealt?.expectedSeconds.reduce((a, b) => a + b, 0)).toBe(90);
    expect(dealToLanes(["e2e/a.spec.ts", "e2e/b.spec.ts", "e2e/c.spec.ts"], { "e2e/a.spec.ts": 40 }, [0, 0])).toBeNull();
  });

  it("never deals an empty lane, which would run every file", () => {
    expect(dealToLanes(["e2e/a.spec.ts"], { "e2e/a.spec.ts": 40 }, [0, 0])).toBeNull();
  });

  it("filters exactly the named files: a name that is the start of another's does not pick it up", () => {
    const [inbox] = exactFileFilters(["e2e/inbox.spec.ts"]);
    const filter = new RegExp(inbox ?? "");
    expect(filter.test("/repo/e2e/inbox.spec.ts")).toBe(true);
    expect(filter.test("/repo/e2e/inbox-keyboard.spec.ts")).toBe(false);
    expect(filter.test("/repo/e2e/inboxXspec.ts")).toBe(false);
  });

  it("keeps the figures between runs, merging a partial run into the last record, and ignores a record it cannot read", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "e2e-lanes-"));
    expect(loadE2eFileSeconds(dir)).toEqual({});
    saveE2eFileSeconds(dir, [{ file: "e2e/a.spec.ts", seconds: 12.34 }, { file: "e2e/b.spec.ts", seconds: 3 }]);
    saveE2eFileSeconds(dir, [{ file: "e2e/a.spec.ts", seconds: 20 }, { file: "../outside.ts", seconds: 1 }]);
    expect(loadE2eFileSeconds(dir)).toEqual({ "e2e/a.spec.ts": 20, "e2e/b.spec.ts": 3 });
    writeFileSync(path.join(dir, "e2e-file-seconds.json"), "{ not json");
    expect(loadE2eFileSeconds(dir)).toEqual({});
    expect(readFileSync(path.join(dir, "e2e-file-seconds.json"), "utf8")).toContain("not json");
  });

  it("lists this checkout's spec files and nothing else", () => {
    const files = e2eSpecFiles();
    expect(files.length).toBeGreaterThan(40);
    expect(files.every((file) => /^e2e\/[\w.-]+\.spec\.ts$/.test(file))).toBe(true);
    expect(files).toContain("e2e/smoke.spec.ts");
    expect(files).not.toContain("e2e/support.ts");
  });
});
