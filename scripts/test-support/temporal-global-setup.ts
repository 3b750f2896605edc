// Starts one real Temporal dev server (in memory, on free ports) for the
// integration tests, and stops it afterwards.
import os from "node:os";
import path from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { provisionTemporalCli } from "../lib/temporal-cli";
import { spawnDevServer, waitForTemporal } from "../lib/temporal-server";
import { freePort } from "./ports";

/** Temporal Cloud refuses a payload over 2 MB and warns over 512 KB. */
export const TEMPORAL_CLOUD_BLOB_LIMITS = { errorBytes: 2 * 1024 * 1024, warnBytes: 512 * 1024 } as const;

declare module "vitest" {
  export interface ProvidedContext {
    temporalAddress: string;
    temporalCli: string;
  }
}

export default async function setup(project: TestProject) {
  const cli = await provisionTemporalCli();
  const [port, uiPort, httpPort, metricsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const dir = mkdtempSync(path.join(os.tmpdir(), "zap-it-temporal-"));
  const address = `127.0.0.1:${port}`;
  const child = spawnDevServer({
    cli,
    host: "127.0.0.1",
    port,
    uiPort,
    httpPort,
    metricsPort,
    headless: true,
    dbFile: path.join(dir, "temporal.db"),
    namespace: "default",
    logFile: path.join(dir, "temporal.log"),
    // Temporal Cloud's payload limits, so a payload too large for production fails here too.
    dynamicConfig: { "limit.blobSize.error": TEMPORAL_CLOUD_BLOB_LIMITS.errorBytes, "limit.blobSize.warn": TEMPORAL_CLOUD_BLOB_LIMITS.warnBytes },
  });
  await waitForTemporal({ address }, child, 60_000);
  project.provide("temporalAddress", address);
  project.provide("temporalCli", cli);
  return async () => {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    rmSync(dir, { recursive: true, force: true });
  };
}
