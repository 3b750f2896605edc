// The scale-out suite (`npm test` runs it beside e2e, after first run, on the
// `.next` built beside integration): two `next start` servers and two worker processes on one
// PostgreSQL database and one Temporal task queue. One file, long timeouts.
import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "../..");

export default defineConfig({
  root,
  resolve: {
    alias: {
      // Server modules import "server-only", which throws outside React's server build.
      "server-only": path.join(root, "node_modules/server-only/empty.js"),
      "@": root,
    },
  },
  test: {
    name: "scale-out",
    environment: "node",
    allowOnly: false,
    include: ["scripts/scale-out/**/*.scale-out.ts"],
    // The integration suite's Temporal dev server and workflow bundle.
    globalSetup: ["scripts/test-support/temporal-global-setup.ts"],
    fileParallelism: false,
    // A hang detector: beside e2e, at low priority (scripts/test.ts), the burst gets what e2e leaves of two cores.
    testTimeout: 900_000,
    // Run on its own (not after e2e), the set-up builds `.next` first (~1–2 min on two cores).
    hookTimeout: 600_000,
  },
});
