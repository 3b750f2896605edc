// The runner's honesty checks: a skipped test is named, refused in CI unless
// allow-listed; a suite below its floor fails; PostgreSQL down where it is
// required is an error naming it, not a skip.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { belowFloor, criticalPath, inCi, loadSkipAllowList, loadTestFloors, playwrightSkips, slowest, unallowedSkips, unhandledErrors, vitestFileTimes, vitestSkips, type PlaywrightReport, type VitestReport } from "./test-report";
import { postgresReachable, postgresRequired, redactedPostgresUrl } from "./databases";
import { PROJECT_ROOT } from "../lib/run";

const vitestReport: VitestReport = {
  numPassedTests: 1,
  numFailedTests: 0,
  numPendingTests: 2,
  numTodoTests: 1,
  testResults: [
    {
      name: path.join(PROJECT_ROOT, "lib/a.int.test.ts"),
      startTime: 1_000,
      endTime: 4_500,
      assertionResults: [
        { fullName: "a runs", status: "passed", duration: 3000 },
        { fullName: "a on postgresql", status: "skipped" },
        { fullName: "a later", status: "todo" },
      ],
    },
    { name: path.join(PROJECT_ROOT, "lib/b.int.test.ts"), startTime: 0, endTime: 9_000, assertionResults: [{ fullName: "b", status: "pending" }] },
  ],
};

const playwrightReport: PlaywrightReport = {
  stats: { expected: 1, unexpected: 0, flaky: 0, skipped: 1 },
  suites: [
    {
      title: "inbox.spec.ts",
      file: "inbox.spec.ts",
      specs: [
        { title: "approves", file: "inbox.spec.ts", tests: [{ status: "expected", results: [{ duration: 2000 }] }] },
        { title: "rejects", file: "inbox.spec.ts", tests: [{ status: "skipped", results: [] }] },
      ],
    },
  ],
};

describe("skips", () => {
  it("names every skipped, pending and todo test of a vitest report by file and title", () => {
    expect(vitestSkips(vitestReport)).toEqual([
      { file: "lib/a.int.test.ts", title: "a on postgresql" },
      { file: "lib/a.int.test.ts", title: "a later" },
      { file: "lib/b.int.test.ts", title: "b" },
    ]);
  });

  it("names Playwright's skipped tests", () => {
    expect(playwrightSkips(playwrightReport)).toEqual([{ file: "inbox.spec.ts", title: "rejects" }]);
  });

  it("refuses every skip the allow-list does not name exactly", () => {
    const skips = vitestSkips(vitestReport);
    const allowed = [{ file: "lib/a.int.test.ts", title: "a later", reason: "needs a GPU model server that CI cannot build" }];
    expect(unallowedSkips(skips, allowed).map((s) => s.title)).toEqual(["a on postgresql", "b"]);
  });

  it("the allow-list must give a reason for each entry; the committed one is valid", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "zap-allow-"));
    const file = path.join(dir, "allow.json");
    writeFileSync(file, JSON.stringify([{ file: "x.test.ts", title: "t", reason: "" }]));
    expect(() => loadSkipAllowList(file)).toThrow(/needs a file, a title and a reason/);
    expect(Array.isArray(loadSkipAllowList())).toBe(true);
  });

  it("CI is any CI value but false or 0", () => {
    expect(inCi({ CI: "true" })).toBe(true);
    expect(inCi({ CI: "1" })).toBe(true);
    expect(inCi({ CI: "false" })).toBe(false);
    expect(inCi({})).toBe(false);
  });
});

describe("the run's critical path", () => {
  it("walks back from the suite that ended last through what each one waited for, a shared run once", () => {
    // typecheck then unit beside lint; integration + security one shared run; e2e beside first run then scale-out.
    const suites = [
      { name: "typecheck", seconds: 30, endedAt: 35 },
      { name: "lint", seconds: 75, endedAt: 80 },
      { name: "unit", seconds: 45, endedAt: 80.5 },
      { name: "integration", seconds: 900, endedAt: 981 },
      { name: "security", seconds: 900, endedAt: 981 },
      { name: "first run", seconds: 200, endedAt: 1181 },
      { name: "e2e", seconds: 400, endedAt: 1382 },
      { name: "scale-out", seconds: 110, endedAt: 1292 },
    ];
    expect(criticalPath(suites).map((s) => s.name)).toEqual(["typecheck", "unit", "integration + security", "e2e"]);
    expect(criticalPath(suites)[0]?.from, "setup before the first suite").toBe(5);
  });
});

describe("floors and times", () => {
  it("a suite below its committed floor is a failure that says so; at or above is fine", () => {
    const floors = loadTestFloors();
    const unit = floors.unit ?? 0;
    expect(unit).toBeGreaterThan(500);
    expect(belowFloor("unit", unit - 1, floors)).toMatch(/below the floor of/);
    expect(belowFloor("unit", unit, floors)).toBeNull();
    expect(belowFloor("not-a-suite", 0, floors)).toBeNull();
  });

  it("file times come from the report's start and end; the slowest first", () => {
    expect(slowest(vitestFileTimes(vitestReport), 1)).toEqual([{ file: "lib/b.int.test.ts", seconds: 9 }]);
  });
});

describe("PostgreSQL where it is required", () => {
  const saved = { CI: process.env.CI, TEST_DATABASE_URL: process.env.TEST_DATABASE_URL };
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
  const closed = "postgresql://postgres:hunter2@127.0.0.1:1/postgres";

  it("with CI=true a server that is down is an error naming PostgreSQL, its URL (password hidden) and why", async () => {
    process.env.CI = "true";
    delete process.env.TEST_DATABASE_URL;
    expect(postgresRequired()).toBe(true);
    await expect(postgresReachable(closed)).rejects.toThrow(/^PostgreSQL at postgresql:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/postgres is required \(CI is set\) but unreachable: .*ECONNREFUSED/);
  });

  it("locally (no CI, no TEST_DATABASE_URL) it is a loud skip: false", async () => {
    delete process.env.CI;
    delete process.env.TEST_DATABASE_URL;
    expect(postgresRequired()).toBe(false);
    await expect(postgresReachable(closed)).resolves.toBe(false);
    expect(redactedPostgresUrl(closed)).not.toContain("hunter2");
  });
});

describe("an error vitest caught outside any test", () => {
  // vitest 4's own output for an unhandled rejection (colour codes kept, as CI prints them).
  const printed = "\n\u001b[1m\u001b[30m\u001b[46m RUN \u001b[49m\u001b[39m\u001b[22m \u001b[36mv4.1.12 \u001b[39m\u001b[90m/tmp/vt\u001b[39m\n\n \u001b[32m\u2713\u001b[39m x.test.ts \u001b[2m(\u001b[22m\u001b[2m1 test\u001b[22m\u001b[2m)\u001b[22m\u001b[32m 53\u001b[2mms\u001b[22m\u001b[39m\n\u001b[31m\u23af\u23af\u23af\u23af\u23af\u23af\u001b[39m\u001b[1m\u001b[41m Unhandled Errors \u001b[49m\u001b[22m\u001b[31m\u23af\u23af\u23af\u23af\u23af\u23af\u001b[39m\n\u001b[31m\u001b[1m\nVitest caught 1 unhandled error during the test run.\nThis might cause false positive tests. Resolve unhandled errors to make sure your tests are not affected.\u001b[22m\u001b[39m\n\n\u001b[31m\u23af\u23af\u23af\u23af\u001b[39m\u001b[1m\u001b[41m Unhandled Rejection \u001b[49m\u001b[22m\u001b[31m\u23af\u23af\u23af\u23af\u23af\u001b[39m\n\u001b[31m\u001b[1mError\u001b[22m: terminating connection due to administrator command\u001b[39m\n\u001b[36m \u001b[2m\u276f\u001b[22m Timeout._onTimeout x.test.ts:\u001b[2m3:35\u001b[22m\u001b[39m\n    \u001b[90m  1|\u001b[39m \u001b[35mimport\u001b[39m { test\u001b[33m,\u001b[39m expect } \u001b[35mfrom\u001b[39m \u001b[32m\"vitest\"\u001b[39m\u001b[33m;\u001b[39m\n    \u001b[90m  2|\u001b[39m \u001b[34mtest\u001b[39m(\u001b[32m\"a\"\u001b[39m\u001b[33m,\u001b[39m \u001b[35masync\u001b[39m () \u001b[33m=>\u001b[39m {\n    \u001b[90m  3|\u001b[39m   setTimeout(() => Promise.reject(new Error(\"terminating connection du\u2026\n    \u001b[90m   |\u001b[39m                                   \u001b[31m^\u001b[39m\n    \u001b[90m  4|\u001b[39m   \u001b[35mawait\u001b[39m \u001b[35mnew\u001b[39m \u001b[33mPromise\u001b[39m((r) \u001b[33m=>\u001b[39m \u001b[34msetTimeout\u001b[39m(r\u001b[33m,\u001b[39m \u001b[34m50\u001b[39m))\u001b[33m;\u001b[39m\n    \u001b[90m  5|\u001b[39m   \u001b[34mexpect\u001b[39m(\u001b[34m1\u001b[39m)\u001b[33m.\u001b[39m\u001b[34mtoBe\u001b[39m(\u001b[34m1\u001b[39m)\u001b[33m;\u001b[39m\n\u001b[90m \u001b[2m\u276f\u001b[22m listOnTimeout node:internal/timers:\u001b[2m581:17\u001b[22m\u001b[39m\n\u001b[90m \u001b[2m\u276f\u001b[22m process.processTimers node:internal/timers:\u001b[2m519:7\u001b[22m\u001b[39m\n\n\u001b[31mThis error originated in \"\u001b[1mx.test.ts\u001b[22m\" test file. It doesn't mean the error was thrown inside the file itself, but while it was running.\u001b[39m\n\u001b[31mThe latest test that might've caused the error is \"\u001b[1ma\u001b[22m\". It might mean one of the following:\n- The error was thrown, while Vitest was running this test.\n- If the error occurred after the test had been completed, this was the last documented test before it was thrown.\u001b[39m\n\u001b[31m\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u001b[39m\n\n\n\u001b[2m Test Files \u001b[22m \u001b[1m\u001b[32m1 passed\u001b[39m\u001b[22m\u001b[90m (1)\u001b[39m\n\u001b[2m      Tests \u001b[22m \u001b[1m\u001b[32m1 passed\u001b[39m\u001b[22m\u001b[90m (1)\u001b[39m\n\u001b[2m     Errors \u001b[22m \u001b[1m\u001b[31m1 error\u001b[39m\u001b[22m\n\u001b[2m   Start at \u001b[22m 23:16:17\n\u001b[2m   Duration \u001b[22m 316ms\u001b[2m (transform 17ms, setup 0ms, import 28ms, tests 53ms, environment 0ms)\u001b[22m\n\n";

  it("is named in the summary by its message and the file it came from", () => {
    expect(unhandledErrors(printed)).toEqual([
      '(Unhandled Rejection) Error: terminating connection due to administrator command — This error originated in "x.test.ts" test file. It doesn\'t mean the error was thrown inside the file itself, but while it was running.',
    ]);
  });

  it("output without vitest's section still says where to look", () => {
    expect(unhandledErrors("Test Files 3 passed")).toEqual(["(an error outside any test: vitest's output above says which)"]);
  });
});
