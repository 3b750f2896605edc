import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { scaledWait } from "./scripts/test-support/wait-scale";

const root = import.meta.dirname;

const INTEGRATION_FILES = "{lib,worker,scripts}/**/*.int.test.ts";
/** The security suite (issue 14's attacks, each a test): real Temporal and databases, like integration. */
const SECURITY_FILES = "{lib,worker,scripts,app}/**/*.security.test.ts";
/**
 * Integration files that load the machine on purpose, with timeouts that assume nothing else runs. (The plan's
 * Temporal-server crash, which kills and restarts a server of its own, runs with the others again: the
 * "Missing associated machine for LocalActivity(7)" it once stopped on is root-caused — plan-cancel-replay.int.test.ts.)
 */
const SERIAL_INTEGRATION_FILES = ["worker/engine-tests/write-load.int.test.ts", "lib/db/concurrent-writes.int.test.ts", "worker/engine-tests/replay-soak.int.test.ts"];
/**
 * Integration and security files at a time. Most of an integration test waits on Temporal, a child process or a
 * database: with two at a time the suite used about 54 % of two cores (npm test, 2026-11-28), so three; with three,
 * once lint no longer filled the gaps (scripts/test-support/lint-cache.ts), 15–23 % of two cores stood idle for
 * minutes of the parallel files (npm test, 2026-12-01), so four.
 */
const PARALLEL_INTEGRATION_FILES = 4;
/**
 * Tests on a real model (llama-server on the CPU, which loads the machine) and against a real Arize Phoenix: collected
 * everywhere, never left out. Each provisions its component into the cache outside the checkout
 * (scripts/lib/local-model.ts, scripts/test-support/phoenix.ts; npm test starts both in the background at setup), so
 * a machine that cannot have one fails naming it (docs/real-models.md, docs/testing.md). The model's files run in
 * the serial group, alone; Phoenix's with the parallel ones.
 */
const REAL_MODEL_FILES = ["worker/engine-tests/llama-demo-graphs.int.test.ts", "worker/engine-tests/llama-token-stream.int.test.ts"];
/**
 * Test files that change what a process shares: a module mock, a stubbed env or global, a spy, fake timers,
 * process.env itself, or the Temporal runtime. They run isolated (a fresh module graph per file); every other unit
 * and integration file runs in a worker that keeps its modules between files (isolate: false). Importing Prisma,
 * the Temporal SDK and next-auth again for each file was a sixth of the integration suite's CPU (import 269 s →
 * 122 s summed), and unit went from 85 to 25 CPU-s (npm test, 2026-11-30). Found by reading the files, so a new
 * file that mocks is isolated without a list to keep.
 */
const CHANGES_THE_PROCESS = /vi\.(mock|doMock|stubEnv|stubGlobal|spyOn|useFakeTimers)\(|process\.env(\.[A-Z_]+|\[[^\]]+\]) *=[^=]|delete process\.env|Runtime\.install/;

function filesThatChangeTheProcess(dirs: string[], name: RegExp): string[] {
  const found: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && !entry.name.startsWith(".")) visit(relative);
      } else if (name.test(entry.name) && CHANGES_THE_PROCESS.test(readFileSync(path.join(root, relative), "utf8"))) found.push(relative);
    }
  };
  for (const dir of dirs) visit(dir);
  return found;
}
const ISOLATED_INTEGRATION_FILES = filesThatChangeTheProcess(["lib", "worker", "scripts"], /\.int\.test\.ts$/);
/** Security files that change what a process shares (as above): each in a fresh module graph; the rest share one. */
const ISOLATED_SECURITY_FILES = filesThatChangeTheProcess(["lib", "worker", "scripts", "app"], /\.security\.test\.ts$/);
const UNIT_DIRS = ["lib", "worker", "scripts", "components", "app"];
const ISOLATED_UNIT_FILES = filesThatChangeTheProcess(UNIT_DIRS, /(?<!\.int|\.security)\.test\.tsx?$/);

const integration = {
  globalSetup: ["scripts/test-support/temporal-global-setup.ts"],
  // A hang detector, longer on a machine npm test measured as slow (scripts/test-support/wait-scale.ts).
  testTimeout: scaledWait(60_000),
  // A hang detector, not a speed bound: a harness on PostgreSQL migrates and seeds a new database and starts a worker,
  // and beside two other files and the build it took over 120 s once (parity-datasets, a fresh clone on 2 cores).
  hookTimeout: 300_000,
};

export default defineConfig({
  resolve: {
    alias: {
      // Server modules import "server-only", which throws outside React's server build.
      "server-only": path.join(root, "node_modules/server-only/empty.js"),
      "@": root,
    },
  },
  test: {
    environment: "node",
    // A stray `.only` must fail the run, not quietly shrink it to one test (Playwright: forbidOnly).
    allowOnly: false,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["{lib,worker,scripts,components,app}/**/*.test.{ts,tsx}"],
          // One file per core: the default (cores − 1) left one of CI's two cores idle for the whole suite.
          maxWorkers: Math.max(2, os.availableParallelism()),
          // Components that call server actions (the trace's fork and feedback widgets) load next-auth through them: inlined, as in the security project.
          server: { deps: { inline: ["next-auth"] } },
          exclude: ["**/*.int.test.ts", SECURITY_FILES, ...ISOLATED_UNIT_FILES, "**/node_modules/**"],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "unit-isolated",
          include: ISOLATED_UNIT_FILES,
          maxWorkers: Math.max(2, os.availableParallelism()),
          server: { deps: { inline: ["next-auth"] } },
          exclude: ["**/node_modules/**"],
        },
      },
      {
        extends: true,
        test: {
          ...integration,
          name: "integration",
          include: [INTEGRATION_FILES],
          exclude: [...SERIAL_INTEGRATION_FILES, ...REAL_MODEL_FILES, ...ISOLATED_INTEGRATION_FILES, "**/node_modules/**"],
          // The replay soak loads the machine on purpose (about 1.6 cores): it runs with the serial files, alone.
          maxWorkers: PARALLEL_INTEGRATION_FILES,
          isolate: false,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          ...integration,
          name: "integration-isolated",
          include: ISOLATED_INTEGRATION_FILES.filter((file) => !SERIAL_INTEGRATION_FILES.includes(file) && !REAL_MODEL_FILES.includes(file)),
          exclude: ["**/node_modules/**"],
          maxWorkers: PARALLEL_INTEGRATION_FILES,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          ...integration,
          name: "security",
          include: [SECURITY_FILES],
          // With the integration files (npm test runs both in one vitest run): one pool.
          sequence: { groupOrder: 2 },
          // next-auth imports "next/server" without an extension, which Node's ESM resolver refuses; inlined, Vite resolves it (sign-in tests drive Auth.js's real route).
          server: { deps: { inline: ["next-auth"] } },
          exclude: [...ISOLATED_SECURITY_FILES, "**/node_modules/**"],
          maxWorkers: PARALLEL_INTEGRATION_FILES,
          // Like integration: the files that mock nothing keep their modules between files (each fresh import of
          // Prisma, the Temporal SDK and next-auth cost a few CPU-s per file).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          ...integration,
          name: "security-isolated",
          include: ISOLATED_SECURITY_FILES,
          sequence: { groupOrder: 2 },
          server: { deps: { inline: ["next-auth"] } },
          exclude: ["**/node_modules/**"],
          maxWorkers: PARALLEL_INTEGRATION_FILES,
        },
      },
      {
        extends: true,
        test: {
          ...integration,
          name: "integration-serial",
          include: [...SERIAL_INTEGRATION_FILES, ...REAL_MODEL_FILES],
          // One at a time, before the parallel files: they load the machine on purpose and need it to themselves.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
