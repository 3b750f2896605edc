// Orchestration edges found by reading the code (issue 35 §3), on the real
// engine, SQLite and PostgreSQL: a plan whose node run is cancelled directly
// goes on at once (its dependents are skipped, as a failed node's are), a routed
// child cancelled from outside cancels the router's run rather than being routed
// around, and an inline node's failed attempts count against the run tree's one
// budget. Every run here replays on today's workflow code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { testProviders, type TestDatabase } from "../../scripts/test-support/databases";
import { replayRunTrees } from "../../scripts/test-support/replay";
import type { RunEvent, TokenUsage } from "../../lib/contract/types";
import { createModelRegistry, type ModelRegistry } from "../models/registry";
import type { InferenceRequest, InferenceResponse, ModelProvider } from "../models/types";
import { scaledWait } from "../../scripts/test-support/wait-scale";

const providers = await testProviders();
const ofType = <T extends RunEvent["type"]>(events: RunEvent[], type: T) => events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);
const total = (u: TokenUsage | undefined) => (u ? u.inputTokens + u.outputTokens : 0);

/** A model id the test's registry serves itself (ids are checked against the known providers' patterns). */
const FLAKY_MODEL = "demo/test-flaky";
/** What each call of the flaky model spends. */
const CALL_USAGE = { inputTokens: 100, outputTokens: 10 };

/**
 * FLAKY_MODEL: asks for a (missing) tool first, then answers. Its second call throws an internal error (not a
 * model error: the inline node's activity fails and Temporal tries it again) the first time for the node whose objective
 * is "part once", and every time for "part always". Every call that returns spends CALL_USAGE.
 */
function flakyProvider(): ModelProvider {
  const failures = new Map<string, number>();
  return {
    async generate(request: InferenceRequest): Promise<InferenceResponse> {
      const task = request.messages.find((m) => m.role === "user")?.content;
      const text = typeof task === "string" ? task : "";
      const answered = request.messages.some((m) => m.role === "tool");
      if (!answered) return { content: null, toolCalls: [{ id: "call-1", name: "look_around", arguments: "{}" }], usage: CALL_USAGE, finishReason: "tool-calls" };
      const failed = failures.get(text) ?? 0;
      // The node's objective (the task quoted after it names both nodes).
      if (text.startsWith("Objective: part always") || (text.startsWith("Objective: part once") && failed === 0)) {
        failures.set(text, failed + 1);
        throw new Error("the test provider dropped the connection");
      }
      return { content: "done", toolCalls: [], usage: CALL_USAGE, finishReason: "stop" };
    },
  };
}

function models(h: EngineHarness): ModelRegistry {
  const base = createModelRegistry({ models: h.config.models });
  const flaky = flakyProvider();
  return { resolve: (id) => (id === FLAKY_MODEL ? { provider: flaky, modelName: "flaky" } : base.resolve(id)) };
}

/** A planner, a slow card with a tool (a child workflow) and a quick tool-less one (inline). */
const team = (extra: { name: string; model: string; description: string }[] = []) => ({
  entryAgent: "planner",
  mode: "plan-and-execute" as const,
  plan: { concurrency: 4, nodeRetries: 1 },
  agents: [
    { name: "planner", model: "demo/planner" },
    { name: "slow", model: "demo/slow", description: "takes its time", tools: ["calculator"] },
    { name: "w", model: "demo/w", description: "does one part" },
    ...extra,
  ],
  limits: { followUpWindowSeconds: 0 },
});
const plan = (nodes: { id: string; agent: string; dependsOn?: string[] }[]) => ({ nodes: nodes.map((n) => ({ objective: `part ${n.id}`, dependsOn: [], ...n })) });

// Concurrent: the providers side by side, and each provider's runs together (each is its own run on one worker and
// waits mostly on Temporal timers: a node's retry backoff, a cancel). The replay waits for them all (sequential).
describe.concurrent.each(providers)("orchestration edges on $provider", ({ available, create }) => {
  let h: EngineHarness;
  const replayable: string[] = [];
  beforeAll(async () => {
    if (!available) return;
    const database: TestDatabase = await create();
    h = await startEngineHarness({ database, worker: false, policy: { exemptTools: ["calculator"] } });
    await h.startWorker({ models: models(h) });
  }, scaledWait(120_000));
  afterAll(async () => {
    if (available) await h.stop();
  });

  /** Starts a run and cancels the child run of `agentName` (a plan node or a routed child) once it works, directly. */
  async function cancelChildOf(runId: string, agentName: string): Promise<string> {
    const child = await eventually(
      () => h.db.run.findFirst({ where: { parentRunId: runId, agentName, status: "thinking" }, select: { id: true } }),
      (row) => row !== null,
      30_000,
      `the ${agentName} child of ${runId} to work`,
    );
    await h.engine.cancelRun(child!.id);
    return child!.id;
  }

  it.skipIf(!available)("a node run cancelled directly: its dependents are skipped at once and the plan ends partially_failed", async () => {
    const nodes = plan([{ id: "a", agent: "slow" }, { id: "b", agent: "w", dependsOn: ["a"] }, { id: "c", agent: "w" }]);
    const { runId } = await h.engine.startRun({ graph: team(), task: `Do it\n@planner: return ${JSON.stringify(nodes)}\n@slow: think 60000\n@w: answer: part done` });
    const cancelled = await cancelChildOf(runId, "slow");
    // Before: b stayed pending and the plan waited for its run timeout (3,600 s).
    const done = await waitForStatus(h.engine, runId, ["completed", "failed", "cancelled"], 45_000);
    expect(done.status).toBe("completed");
    const events = await h.engine.getEvents(runId);
    const finished = Object.fromEntries(ofType(events, "plan_node_finished").map((e) => [e.nodeId, e]));
    expect(finished.a).toMatchObject({ status: "cancelled", runId: cancelled, reason: "its run was cancelled" });
    expect(finished.b).toMatchObject({ status: "skipped", runId: null, reason: "dependency a was cancelled" });
    expect(finished.c).toMatchObject({ status: "completed" });
    expect(ofType(events, "plan_finished")[0]).toMatchObject({ outcome: "partially_failed", completed: 1, failed: 0, skipped: 1, cancelled: 1 });
    expect(done.output).toContain("Not done: a (cancelled), b (skipped)");
    replayable.push(runId);
  });

  it.skipIf(!available)("a node run cancelled directly with nothing else done: the plan and its run end cancelled", async () => {
    const nodes = plan([{ id: "a", agent: "slow" }, { id: "b", agent: "w", dependsOn: ["a"] }]);
    const { runId } = await h.engine.startRun({ graph: team(), task: `Do it\n@planner: return ${JSON.stringify(nodes)}\n@slow: think 60000\n@w: answer: part done` });
    await cancelChildOf(runId, "slow");
    const done = await waitForStatus(h.engine, runId, ["completed", "failed", "cancelled"], 45_000);
    expect(done.status).toBe("cancelled");
    const events = await h.engine.getEvents(runId);
    expect(ofType(events, "plan_node_finished").map((e) => [e.nodeId, e.status])).toEqual([
      ["a", "cancelled"],
      ["b", "skipped"],
    ]);
    expect(ofType(events, "plan_finished")[0]).toMatchObject({ outcome: "cancelled", completed: 0, skipped: 1, cancelled: 1, reason: "node a's run was cancelled" });
    expect(ofType(events, "run_cancelled")).toHaveLength(1);
    replayable.push(runId);
  });

  it.skipIf(!available)("a routed child cancelled from outside cancels the router's run: it is not routed around as a failure", async () => {
    const graph = {
      entryAgent: "desk",
      agents: [
        { name: "desk", model: "demo/router", kind: "router" as const, subAgents: ["technical", "billing"], router: { threshold: 0.7, maxAttempts: 3 } },
        { name: "technical", model: "demo/technical", description: "technical problems" },
        { name: "billing", model: "demo/billing", description: "billing" },
      ],
      limits: { followUpWindowSeconds: 0 },
    };
    const { runId } = await h.engine.startRun({ graph, task: "route technical 0.9\nroute billing 0.8\n@technical: think 60000\n@billing: answer: billing took it" });
    await cancelChildOf(runId, "technical");
    const done = await waitForStatus(h.engine, runId, ["completed", "failed", "cancelled"], 45_000);
    // Before: the router routed the task again, to billing, and the run completed with its answer.
    expect(done.status).toBe("cancelled");
    const events = await h.engine.getEvents(runId);
    expect(ofType(events, "routing_decided")).toHaveLength(1);
    expect(ofType(events, "routed_agent_failed")).toEqual([]);
    replayable.push(runId);
  });

  it.skipIf(!available)("an inline node's failed attempts count against the run tree's budget, retried or failed for good", async () => {
    const graph = team([{ name: "flaky", model: FLAKY_MODEL, description: "fails now and then" }]);
    const nodes = plan([{ id: "once", agent: "flaky" }, { id: "always", agent: "flaky" }]);
    const { runId } = await h.engine.startRun({ graph, task: `Do it\n@planner: return ${JSON.stringify(nodes)}` });
    // The "always" node's activity is tried five times (1 + 2 + 4 + 8 s of backoff) before the node fails.
    const done = await waitForStatus(h.engine, runId, ["completed", "failed", "cancelled"], 50_000);
    expect(done.status).toBe("completed");
    const events = await h.engine.getEvents(runId);
    const finished = Object.fromEntries(ofType(events, "plan_node_finished").map((e) => [e.nodeId, e]));
    const call = total(CALL_USAGE);
    // Attempt 1 spent one call before it failed, attempt 2 two: before, only attempt 2's were counted.
    expect(finished.once).toMatchObject({ status: "completed" });
    expect(total(finished.once?.usage)).toBe(3 * call);
    // Five attempts of one call each: before, a node that failed for good counted none.
    expect(finished.always).toMatchObject({ status: "failed" });
    expect(total(finished.always?.usage)).toBe(5 * call);
    // The node runs' rows say what their attempts spent, and the plan's run counts it all.
    const onceRun = ofType(events, "plan_node_started").find((e) => e.nodeId === "once")!.runId;
    expect(total((await h.engine.getRun(onceRun)).usage)).toBe(3 * call);
    const planner = await h.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(planner.inputTokens + planner.outputTokens).toBeGreaterThanOrEqual(8 * call);
    // The node's activity tolerates a busy event loop: a heartbeat timeout of 10 s, not 3 s.
    const history = await h.client.workflow.getHandle(runId).fetchHistory();
    const scheduled = (history.events ?? []).flatMap((e) => (e.activityTaskScheduledEventAttributes?.activityType?.name === "runPlanNode" ? [e.activityTaskScheduledEventAttributes] : []));
    expect(scheduled).toHaveLength(2);
    for (const s of scheduled) expect(Number(s.heartbeatTimeout?.seconds ?? 0)).toBe(10);
    replayable.push(runId);
  });

  it.skipIf(!available).sequential("every run above replays on today's workflow code", async () => {
    expect(await replayRunTrees(h, replayable)).toBeGreaterThanOrEqual(replayable.length);
  });
});
