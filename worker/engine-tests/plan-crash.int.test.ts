// A plan survives its worker: SIGKILL the worker while two nodes hold their
// side effects, start another, and the plan completes with every node's
// transfer recorded exactly once.
import type { ChildProcess } from "node:child_process";
import { afterAll, describe, expect, inject, it } from "vitest";
import { eventually, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { startWorkerProcess } from "../../scripts/test-support/worker-process";
import type { RunEvent, TraceNode } from "../../lib/contract/types";
import { scaledWait } from "../../scripts/test-support/wait-scale";

const flatten = (spans: TraceNode[]): TraceNode[] => spans.flatMap((span) => [span, ...flatten(span.children)]);

/**
 * A harness of its own for each story (its own task queue, database and worker processes), so the two kills run side
 * by side: most of each story waits out a heartbeat or start-to-close timeout on the new worker.
 */
interface CrashRig {
  h: EngineHarness;
  startWorker(): Promise<ChildProcess>;
  stop(): Promise<void>;
}

async function crashRig(): Promise<CrashRig> {
  const h = await startEngineHarness({ worker: false, policy: { exemptTools: ["ledger_transfer"] } });
  const workers: ChildProcess[] = [];
  return {
    h,
    async startWorker() {
      const child = await startWorkerProcess({ temporalAddress: h.config.temporal.address, taskQueue: h.taskQueue, databaseUrl: h.database.url, env: { ZAP_WORKFLOW_BUNDLE: inject("workflowBundlePath") } });
      workers.push(child);
      return child;
    },
    async stop() {
      for (const w of workers.splice(0)) w.kill("SIGKILL");
      await h.stop();
    },
  };
}

const rigs: CrashRig[] = [];
afterAll(async () => {
  await Promise.all(rigs.splice(0).map((rig) => rig.stop()));
});
/** A rig for one story, stopped after the file. */
async function rig(): Promise<CrashRig> {
  const made = await crashRig();
  rigs.push(made);
  return made;
}

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

describe.concurrent("a plan whose worker is killed mid-plan", () => {
  it("completes on a new worker with each node's side effect exactly once", async () => {
    const { h, startWorker } = await rig();
    const first = await startWorker();
    const before = await h.db.ledgerAccount.findUniqueOrThrow({ where: { id: "savings" } });
    const { runId } = await h.engine.startRun({
      graph,
      task: `Pay in parts\n@planner: return ${JSON.stringify(plan)}\n@payer: tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":2,"hold_ms":3000}\n@payer: answer: paid`,
    });
    // Both parallel transfers have committed; their activities still hold (heartbeating).
    // Entries carry the root run; the idempotency key names the node (every attempt of it alike).
    await eventually(() => h.db.ledgerEntry.count({ where: { runId } }), (n) => n === 2, 30_000, "two transfers to commit");
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));
    await startWorker();
    const summary = await waitForStatus(h.engine, runId, ["completed"], 90_000);
    expect(summary.output).toContain("paid");
    const entries = await h.db.ledgerEntry.findMany({ where: { runId } });
    expect(entries.map((e) => e.idempotencyKey.slice(runId.length + 1).split(":")[0]).sort()).toEqual(["node-first", "node-last", "node-second"]);
    const after = await h.db.ledgerAccount.findUniqueOrThrow({ where: { id: "savings" } });
    expect(before.balanceCents - after.balanceCents).toBe(600);
    // The killed worker's calls were retried on the new one, which found them done (not done again).
    expect(await h.db.toolExecution.count({ where: { runId } })).toBe(3);
    const events: RunEvent[] = await h.engine.getEvents(runId);
    expect(events.filter((e) => e.type === "plan_node_finished").map((e) => (e.type === "plan_node_finished" ? e.status : ""))).toEqual(["completed", "completed", "completed"]);
    // The kill hit both transfers in flight: each was retried on the new worker after the first stopped
    // heartbeating, and found its record (replayed), while "last", started after the kill, ran once.
    for (const id of ["first", "second"]) {
      const nodeEvents = await h.engine.getEvents(`${runId}.node-${id}-1`);
      const done = nodeEvents.find((e): e is Extract<RunEvent, { type: "tool_call_completed" }> => e.type === "tool_call_completed");
      expect(done?.attempts, `node ${id}'s transfer retried after the kill`).toBeGreaterThanOrEqual(2);
      expect(JSON.parse(done?.result ?? "{}"), `node ${id}'s retry found the committed transfer`).toMatchObject({ status: "completed", replayed: true });
      const tool = flatten(await h.engine.getTrace(`${runId}.node-${id}-1`)).find((s) => s.kind === "tool" && s.name === "ledger_transfer");
      expect(String(tool?.attributes?.retryReason)).toMatch(/^attempt 1 stopped heartbeating on worker .+ \(heartbeat timeout: the worker was lost\); retried on /);
    }
    const last = (await h.engine.getEvents(`${runId}.node-last-1`)).find((e): e is Extract<RunEvent, { type: "tool_call_completed" }> => e.type === "tool_call_completed");
    expect(last?.attempts).toBe(1);
    // Two worker processes start and the retries wait out heartbeat timeouts, with the other story beside it.
  }, scaledWait(120_000));

  it("tool-less nodes (activities of the plan's run) in flight on the killed worker run again on the new one, each recorded once", async () => {
    const { h, startWorker } = await rig();
    const first = await startWorker();
    const light = { ...graph, agents: [graph.agents[0]!, { name: "writer", model: "demo/writer", description: "writes one part" }] };
    const parts = { nodes: [{ id: "a", agent: "writer", objective: "part a", dependsOn: [] }, { id: "b", agent: "writer", objective: "part b", dependsOn: [] }, { id: "c", agent: "writer", objective: "part c", dependsOn: ["a", "b"] }] };
    const { runId } = await h.engine.startRun({ graph: light, task: `Write in parts\n@planner: return ${JSON.stringify(parts)}\n@writer: think 4000\n@writer: answer: written` });
    // Both nodes' activities are in flight: each has written its run (thinking) and waits on the model.
    const nodeRuns = await eventually(
      async () => Promise.all(["a", "b"].map((id) => h.engine.getRun(`${runId}.node-${id}-1`).catch(() => null))),
      (runs) => runs.every((r) => r?.status === "thinking"),
      30_000,
      "both inline nodes to be thinking",
    );
    expect(nodeRuns.map((r) => r?.parentRunId)).toEqual([runId, runId]);
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));
    await startWorker();
    const summary = await waitForStatus(h.engine, runId, ["completed"], 90_000);
    expect(summary.output).toBe("written");
    const events: RunEvent[] = await h.engine.getEvents(runId);
    const finished = events.filter((e) => e.type === "plan_node_finished");
    expect(finished.map((e) => (e.type === "plan_node_finished" ? [e.nodeId, e.status, e.attempts] : [])).sort()).toEqual([
      ["a", "completed", 1],
      ["b", "completed", 1],
      ["c", "completed", 1],
    ]);
    // The killed worker's activities were tried again (attempt 2), not started as new node attempts…
    const history = await h.client.workflow.getHandle(runId).fetchHistory();
    const retried = (history.events ?? []).filter((e) => (e.activityTaskStartedEventAttributes?.attempt ?? 1) >= 2);
    expect(retried.length, "the two nodes' activities, each on attempt 2").toBe(2);
    // …and each node's run holds one answer and one ending.
    for (const id of ["a", "b"]) {
      const nodeEvents = await h.engine.getEvents(`${runId}.node-${id}-1`);
      expect(nodeEvents.filter((e) => e.type === "run_completed")).toHaveLength(1);
      expect(nodeEvents.filter((e) => e.type === "run_started")).toHaveLength(1);
      expect(await h.engine.getRun(`${runId}.node-${id}-1`)).toMatchObject({ status: "completed", output: "written" });
    }
  }, scaledWait(120_000));
});
