// The local Temporal dev server keeps workflows across a restart (SQLite
// persistence in the data folder) and registers our search attributes.
import os from "node:os";
import path from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import type { ChildProcess } from "node:child_process";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client, Connection } from "@temporalio/client";
import { SEARCH_ATTRIBUTES } from "../../lib/temporal/search-attributes";
import { ensureSearchAttributes, spawnDevServer, temporalIsServing, waitForTemporal } from "./temporal-server";
import { freePort } from "../test-support/ports";

const dir = mkdtempSync(path.join(os.tmpdir(), "zap-it-restart-"));
let server: ChildProcess | undefined;

async function startServer(port: number, uiPort: number, httpPort: number): Promise<ChildProcess> {
  const child = spawnDevServer({
    cli: inject("temporalCli"),
    host: "127.0.0.1",
    port,
    uiPort,
    httpPort,
    metricsPort: 0,
    headless: true,
    dbFile: path.join(dir, "temporal.db"),
    namespace: "default",
    logFile: path.join(dir, "temporal.log"),
  });
  await waitForTemporal({ address: `127.0.0.1:${port}` }, child, 60_000);
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
}

afterAll(async () => {
  if (server) await stop(server);
  rmSync(dir, { recursive: true, force: true });
});

describe("local Temporal dev server", () => {
  it("registers the product's search attributes and keeps workflows across a restart", async () => {
    const [port, uiPort, httpPort] = [await freePort(), await freePort(), await freePort()];
    const address = `127.0.0.1:${port}`;
    server = await startServer(port, uiPort, httpPort);

    const connection = await Connection.connect({ address });
    const listed = await connection.operatorService.listSearchAttributes({ namespace: "default" });
    for (const attribute of SEARCH_ATTRIBUTES) expect(Object.keys(listed.customAttributes ?? {})).toContain(attribute.name);
    expect(await ensureSearchAttributes({ address }, "default")).toEqual([]);

    // A workflow that no worker picks up: it stays running, durable on disk.
    const client = new Client({ connection });
    const handle = await client.workflow.start("notRegisteredAnywhere", { taskQueue: "nobody-polls-this", workflowId: "restart-probe", args: [] });
    await connection.close();

    await stop(server);
    expect(await temporalIsServing({ address }, 500)).toBe(false);
    server = await startServer(port, uiPort, httpPort);

    const after = await Connection.connect({ address });
    try {
      const description = await new Client({ connection: after }).workflow.getHandle("restart-probe", handle.firstExecutionRunId).describe();
      expect(description.status.name).toBe("RUNNING");
      expect(description.type).toBe("notRegisteredAnywhere");
    } finally {
      await after.close();
    }
  });
});
