// The first-run suite (`npm test` runs it beside e2e, its output held): one real
// `npm start` in a fresh clone, so one file, tests in order, long timeouts.
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: path.resolve(import.meta.dirname, "../.."),
  test: {
    name: "first-run",
    environment: "node",
    allowOnly: false,
    include: ["scripts/first-run/**/*.first-run.ts"],
    fileParallelism: false,
    // The first test builds the clone (next build, ~1–2 min on two cores; longer beside e2e).
    testTimeout: 1_260_000,
    hookTimeout: 120_000,
  },
});
