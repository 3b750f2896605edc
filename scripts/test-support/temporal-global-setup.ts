// Starts one real Temporal dev server (in memory, on free ports) for the
// integration tests, and stops it afterwards.
import os from "node:os";
import path from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { provisionTemporalCli } from "../lib/temporal-cli";
import { spawnDevServer, waitForTemporal } from "../lib/temporal-server";
import { freePort } from "./ports";

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
