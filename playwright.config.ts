import path from "node:path";
import { defineConfig } from "@playwright/test";
import { e2eChromium } from "./scripts/test-support/chromium";

// `npm test` picks free ports and a fresh data folder and passes them in;
// these defaults serve a direct `npx playwright test`.
const port = Number(process.env.E2E_PORT ?? 3210);
const temporalPort = Number(process.env.E2E_TEMPORAL_PORT ?? 17433);
const temporalUiPort = Number(process.env.E2E_TEMPORAL_UI_PORT ?? 18433);
/**
 * Where e2e/approval-slack.spec.ts listens as Slack's Web API: the one private address the stack's worker may
 * reach (the egress guard refuses every other), set per Playwright process by npm test (scripts/test.ts).
 */
const e2eSlackPort = Number(process.env.E2E_SLACK_PORT ?? 18533);
const dataDir = process.env.E2E_DATA_DIR ?? path.join(import.meta.dirname, ".data", "e2e");
export const baseURL = `http://127.0.0.1:${port}`;

const TRACE_MODES = ["off", "on", "retain-on-failure", "on-first-retry", "retain-on-first-failure"] as const;
type TraceMode = (typeof TRACE_MODES)[number];

/**
 * Playwright's trace (E2E_TRACE, default retain-on-failure). Recording one costs about a quarter of Chromium's CPU
 * (screencast frames and DOM snapshots at every action: 53.9 against 40.3 CPU-s for the same 13 tests, 2026-11-30),
 * so `npm test` runs with it off unless E2E_TRACE asks; a failure still keeps its screenshot.
 */
function traceMode(value = process.env.E2E_TRACE): TraceMode {
  if (value === undefined || value === "") return "retain-on-failure";
  const mode = TRACE_MODES.find((m) => m === value);
  if (!mode) throw new Error(`E2E_TRACE must be one of ${TRACE_MODES.join(", ")}, not "${value}"`);
  return mode;
}

/** Spec files this Playwright process leaves to another (E2E_IGNORE_FILES: comma-separated paths from the project root; npm test's PostgreSQL lane). */
const ignoredFiles = (process.env.E2E_IGNORE_FILES ?? "")
  .split(",")
  .map((file) => file.trim())
  .filter(Boolean)
  .map((file) => path.resolve(import.meta.dirname, file));

export default defineConfig({
  testDir: "e2e",
  ...(ignoredFiles.length ? { testIgnore: ignoredFiles } : {}),
  // npm test runs Playwright processes side by side: each keeps its failure artifacts in a folder of its own.
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  // A whole test's hang detector; a person's waits are the assertions' (15 s). At 45 s, a test whose own polls allow
  // 60 s (compare's fork) ran out first while first run and scale-out shared the two cores with both shards.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: process.env.E2E_REPORTER_JSON ? [["list"], ["json", { outputFile: process.env.E2E_REPORTER_JSON }]] : [["list"]],
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL,
    // Mutating API calls must carry the app's Origin (lib/http/server/request-guard.ts);
    // a browser sends it on every POST, Playwright's API request contexts do not.
    extraHTTPHeaders: { Origin: baseURL },
    trace: traceMode(),
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's headless shell when installed, else its chromium (CHROMIUM_PATH overrides): scripts/test-support/chromium.ts.
      executablePath: e2eChromium(),
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    // The same orchestrator as `npm start`: real Temporal dev server, real
    // database with migrations and seed, production build, live worker.
    command: `${path.join(import.meta.dirname, "node_modules/.bin/tsx")} scripts/start.ts`,
    url: `${baseURL}/api/health`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      ZAP_DATA_DIR: dataDir,
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? `file:${path.join(dataDir, "zap.db")}`,
      TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
      TEMPORAL_UI_PORT: String(temporalUiPort),
      TEMPORAL_TASK_QUEUE: "zap-e2e",
      NEXT_TELEMETRY_DISABLED: "1",
      // Monitors are evaluated every 2 s, so an alert appears within the spec's patience (e2e/monitors.spec.ts).
      ZAP_MONITOR_INTERVAL_SECONDS: "2",
      ZAP_EGRESS_ALLOW_HOSTS: `127.0.0.1:${e2eSlackPort}`,
    },
  },
});
