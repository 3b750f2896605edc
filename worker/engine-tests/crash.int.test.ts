// Exactly-once side effects: SIGKILL the worker in the middle of a ledger
// transfer, start a new worker, and the run completes with the transfer
// recorded once.
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import type { RunEvent } from "../../lib/contract/types";
import { testProviders } from "../../scripts/test-support/databases";
import { startWorkerProcess } from "../../scripts/test-support/worker-process";
import { scaledWait } from "../../scripts/test-support/wait-scale";

const providers = await testProviders();

// The providers side by side (each its own harness, task queue and workers): most of each test waits out a heartbeat timeout.
describe.concurrent.each(providers)("a worker killed mid-call ($provider)", ({ available, create }) => {
  let h: EngineHarness;
  const workers: ChildProcess[] = [];
  async function startWorker(): Promise<ChildProcess> {
    const child = await startWorkerProcess({ temporalAddress: h.config.temporal.address, taskQueue: h.taskQueue, databaseUrl: h.database.url, env: { ZAP_WORKFLOW_BUNDLE: inject("workflowBundlePath") } });
    workers.push(child);
    return child;
  }

  beforeAll(async () => {
    if (available) h = await startEngineHarness({ worker: false, database: await create(), policy: { exemptTools: ["ledger_transfer"] } });
  });
  afterAll(async () => {
    for (const w of workers.splice(0)) w.kill("SIGKILL");
    if (available) await h.stop();
  });

  it.skipIf(!available)("does not repeat the side effect when the call is retried on a new worker", async () => {
    const first = await startWorker();
    const before = await h.db.ledgerAccount.findUniqueOrThrow({ where: { id: "savings" } });
    const { runId } = await h.engine.startRun({
      graph: singleAgentGraph({ tools: ["ledger_transfer"] }),
      task: 'tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":25,"hold_ms":4000}\nanswer: moved',
    });
    // The transfer has committed; the activity is still holding (heartbeating).
    await eventually(() => h.db.ledgerEntry.count({ where: { runId } }), (n) => n === 1, 30_000, "the transfer to commit");
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));

    await startWorker();
    const summary = await waitForStatus(h.engine, runId, ["completed"], 60_000);
    expect(summary.output).toBe("moved");

    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(1);
    expect(await h.db.toolExecution.count({ where: { runId } })).toBe(1);
    const after = await h.db.ledgerAccount.findUniqueOrThrow({ where: { id: "savings" } });
    expect(before.balanceCents - after.balanceCents).toBe(2500);

    const events = await h.engine.getEvents(runId);
    const completed = events.find((e): e is Extract<RunEvent, { type: "tool_call_completed" }> => e.type === "tool_call_completed");
    expect(completed?.attempts).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(completed?.result ?? "{}")).toMatchObject({ status: "completed", replayed: true });

    // The trace shows the retry and why: the first worker stopped heartbeating.
    const spans = await h.engine.getTrace(runId);
    const flat = (nodes: typeof spans): typeof spans => nodes.flatMap((n) => [n, ...flat(n.children)]);
    const tool = flat(spans).find((s) => s.kind === "tool" && s.name === "ledger_transfer");
    expect(tool?.attempts).toBeGreaterThanOrEqual(2);
    expect(String(tool?.attributes?.retryReason)).toMatch(/^attempt 1 stopped heartbeating on worker .+ \(heartbeat timeout: the worker was lost\); retried on /);
    // Two worker processes start and the retry waits out a heartbeat timeout, with the other provider's story beside it.
  }, scaledWait(120_000));
});
