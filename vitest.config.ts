import path from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;

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
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["{lib,worker,scripts,components,app}/**/*.test.{ts,tsx}"],
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["{lib,worker,scripts}/**/*.int.test.ts"],
          globalSetup: ["scripts/test-support/temporal-global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two cores: one file at a time keeps Temporal and the databases responsive.
          fileParallelism: false,
        },
      },
    ],
  },
});
