// A plan survives its Temporal server: SIGKILL a private dev server (SQLite
// persistence on disk) while two parallel nodes hold their side effects, start
// it again on the same port and file, and the plan completes on the same worker
// with every node's transfer recorded exactly once.
import os from "node:os";
import path from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { eventually, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { startWorkerProcess } from "../../scripts/test-support/worker-process";
import { spawnDevServer, temporalIsServing, waitForTemporal } from "../../scripts/lib/temporal-server";
import { freePort } from "../../scripts/test-support/ports";
import type { RunEvent, TraceNode } from "../../lib/contract/types";
import { scaledWait } from "../../scripts/test-support/wait-scale";

const flatten = (spans: TraceNode[]): TraceNode[] => spans.flatMap((span) => [span, ...flatten(span.children)]);

const dir = mkdtempSync(path.join(os.tmpdir(), "zap-plan-temporal-crash-"));
let ports: { port: number; uiPort: number; httpPort: number };
let server: ChildProcess | undefined;
let worker: ChildProcess | undefined;
let h: EngineHarness;

async function startServer(): Promise<ChildProcess> {
  const child = spawnDevServer({
    cli: inject("temporalCli"),
    host: "127.0.0.1",
    ...ports,
    metricsPort: 0,
    headless: true,
    dbFile: path.join(dir, "temporal.db"),
    namespace: "default",
    logFile: path.join(dir, "temporal.log"),
  });
  await waitForTemporal({ address: `127.0.0.1:${ports.port}` }, child, 60_000);
  return child;
}

beforeAll(async () => {
  ports = { port: await freePort(), uiPort: await freePort(), httpPort: await freePort() };
  server = await startServer();
  h = await startEngineHarness({ worker: false, policy: { exemptTools: ["ledger_transfer"] }, env: { TEMPORAL_ADDRESS: `127.0.0.1:${ports.port}` } });
  worker = await startWorkerProcess({ temporalAddress: h.config.temporal.address, taskQueue: h.taskQueue, databaseUrl: h.database.url, env: { ZAP_WORKFLOW_BUNDLE: inject("workflowBundlePath") } });
});
afterAll(async () => {
  worker?.kill("SIGKILL");
  await h?.stop();
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    await new Promise((resolve) => server?.once("exit", resolve));
  }
  rmSync(dir, { recursive: true, force: true });
});

const graph = {
  entryAgent: "planner",
  mode: "plan-and-execute" as const,
  plan: { concurrency: 4, nodeRetries: 0 },
  agents: [
    { name: "planner", model: "demo/planner" },
    { name: "payer", model: "demo/payer", description: "pays one part", tools: ["ledger_transfer"] },
  ],
  limits: { followUpWindowSeconds: 0 },
};
const plan = {
  nodes: [
    { id: "first", agent: "payer", objective: "pay the first part", dependsOn: [] },
    { id: "second", agent: "payer", objective: "pay the second part", dependsOn: [] },
    { id: "last", agent: "payer", objective: "pay the rest", dependsOn: ["first", "second"] },
  ],
};

describe("a plan whose Temporal server is killed mid-plan", () => {
  it("completes once the server is back, with each node's side effect exactly once", async () => {
    const before = await h.db.ledgerAccount.findUniqueOrThrow({ where: { id: "savings" } });
    const { runId } = await h.engine.startRun({
      graph,
      task: `Pay in parts\n@planner: return ${JSON.stringify(plan)}\n@payer: tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":2,"hold_ms":3000}\n@payer: answer: paid`,
    });
    // Both parallel transfers have committed; their activities still hold (heartbeating) when the server dies.
    await eventually(() => h.db.ledgerEntry.count({ where: { runId } }), (n) => n === 2, 30_000, "two transfers to commit");
    const killedAt = Date.now();
    server?.kill("SIGKILL");
    await new Promise((resolve) => server?.once("exit", resolve));
    expect(await temporalIsServing({ address: `127.0.0.1:${ports.port}` }, 500)).toBe(false);
    server = await startServer();

    const summary = await waitForStatus(h.engine, runId, ["completed"], 120_000);
    expect(summary.output).toContain("paid");
    const entries = await h.db.ledgerEntry.findMany({ where: { runId } });
    expect(entries.map((e) => e.idempotencyKey.slice(runId.length + 1).split(":")[0]).sort()).toEqual(["node-first", "node-last", "node-second"]);
    const after = await h.db.ledgerAccount.findUniqueOrThrow({ where: { id: "savings" } });
    expect(before.balanceCents - after.balanceCents).toBe(600);
    // A call whose completion the dead server lost is retried and finds its record: not done again.
    expect(await h.db.toolExecution.count({ where: { runId } })).toBe(3);
    const events: RunEvent[] = await h.engine.getEvents(runId);
    expect(events.filter((e) => e.type === "plan_node_finished").map((e) => (e.type === "plan_node_finished" ? e.status : ""))).toEqual(["completed", "completed", "completed"]);
    // The kill hit both transfers in flight: each tool call began before the server died and ended after it.
    for (const id of ["first", "second"]) {
      const tool = flatten(await h.engine.getTrace(`${runId}.node-${id}-1`)).find((s) => s.kind === "tool" && s.name === "ledger_transfer");
      expect(Date.parse(tool?.startedAt ?? ""), `node ${id}'s transfer started before the kill`).toBeLessThan(killedAt);
      expect(Date.parse(tool?.endedAt ?? ""), `node ${id}'s transfer ended after the kill`).toBeGreaterThan(killedAt);
    }
  }, scaledWait(240_000));
});
