// The scenarios recorded from 9e894a5 on (release-fixture.ts, TAPE_ERA_SCENARIOS):
// taped runs (forks and experiment units) with a handoff, a conversation and
// a plan under the tape; plan nodes run inline that needed a retry (a failing
// first attempt, a worker killed mid-node); the experiment workflow (units
// scored and failed, continued as new, cancelled); the monitor evaluator's
// tick (an alert delivered, a delivery that fails and is owed, then delivered);
// the playground's call and tool description. Each answers the ids of the
// workflows it started: every execution of them, and of their children, is
// recorded.
//
// They start forks, taped runs, experiments and monitors through the web
// server's own functions, which import "server-only": the recorder loads this
// module under the react-server condition (see record-release-histories.ts).
import { randomUUID } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { z } from "zod";
import { saveAgentVersion, requireValidGraph } from "../../lib/agents/repository";
import { readSpans } from "../../lib/run-ledger/read";
import { forkRunWith } from "../../lib/forks/server/fork-run";
import { startTapedRunWith } from "../../lib/tapes/server/start-taped-run";
import { applyChange } from "../../lib/datasets/server/store";
import type { ItemDraft } from "../../lib/datasets/import-parse";
import { startExperiment } from "../../lib/experiments/server/start";
import { startExperimentSchema, type StartExperimentInput } from "../../lib/experiments/schemas";
import { experimentWorkflowId } from "../../lib/experiments/workflow-contract";
import { createMonitor } from "../../lib/monitors/server/store";
import { executePlayground } from "../../lib/playground/server/temporal";
import type { PlaygroundCallOutput, PlaygroundDescribeOutput } from "../../lib/playground/contract";
import type { TraceSpan } from "../../lib/contract/types";
import { monitorScheduleId } from "../../worker/monitor-schedule";
import tripPlanner from "../../lib/agents/demo/trip-planner.json";
import { DEMO_AGENT_GRAPHS } from "../../lib/agents/demo";
import { startWorkerProcess } from "../test-support/worker-process";
import type { TapeEraScenario } from "../test-support/release-fixture";
import { eventually, expectThat, ofType, pendingApproval, waitFor, type Recording } from "./recording";

const unique = () => randomUUID().slice(0, 8);

/** A saved agent (forks and experiments run saved versions), one version per graph given. */
async function saved(r: Recording, prefix: string, ...graphs: Parameters<typeof saveAgentVersion>[2][]): Promise<string> {
  const name = `${prefix}-${unique()}`;
  for (const graph of graphs) await saveAgentVersion(r.db, name, graph, { createdById: r.builder.id });
  return name;
}

async function completedRun(r: Recording, graphName: string, task: string, approve = 0): Promise<string> {
  const { runId } = await r.engine.startRun({ graphName, task, startedBy: { id: r.builder.id, email: r.builder.email } });
  let previous: string | undefined;
  for (let i = 0; i < approve; i++) {
    const approval = await pendingApproval(r, runId, previous);
    await r.engine.decideApproval(runId, { approvalId: approval.id, approved: true, reason: "release fixture", decidedBy: r.approver });
    previous = approval.id;
  }
  await waitFor(r, runId, ["completed"]);
  return runId;
}

function spanOf(spans: TraceSpan[], kind: TraceSpan["kind"], name: string | null, nth: number): TraceSpan {
  const span = spans.filter((s) => s.kind === kind && (name === null || s.name === name)).at(nth);
  if (!span) throw new Error(`no ${kind} span${name ? ` ${name}` : ""} #${nth}`);
  return span;
}

const toolResults = async (r: Recording, runId: string) => ofType(await r.engine.getEvents(runId), "tool_call_completed");
const calc = (expression: string) => `tool calculator {"expression":"${expression}"}`;
const transfer = (amount: number) => `tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":${amount},"memo":"release fixture"}`;
const single = (agent: Record<string, unknown>) => ({ entryAgent: "main", agents: [{ name: "main", model: "demo/test", ...agent }], limits: { followUpWindowSeconds: 0 } });
const gatedTransfer = { approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver" as const, expiresInSeconds: 600 }] };
const tripPlan = (plan: Record<string, unknown> = {}) => ({ ...tripPlanner, mode: "plan-and-execute" as const, plan: { ...tripPlanner.plan, ...plan }, limits: { ...tripPlanner.limits, followUpWindowSeconds: 0 } });
const item = (task: string, expected: string, tape: ItemDraft["tape"] = []): ItemDraft => ({ input: { task, context: {} }, expected: { output: expected }, tape, tags: [], source: {} });

async function dataset(r: Recording, items: ItemDraft[]): Promise<string> {
  const name = `release-ds-${unique()}`;
  await applyChange(r.builder, { newDataset: { name } }, { add: items, note: "release fixture", action: "dataset.items_added" }, r.db);
  return name;
}

const experimentStatus = (r: Recording, experimentId: string, statuses: string[]) =>
  eventually(() => r.db.experiment.findUniqueOrThrow({ where: { id: experimentId } }), (e) => statuses.includes(e.status), `experiment ${experimentId} to be ${statuses.join("|")}`, 120_000);

const start = (r: Recording, input: StartExperimentInput, unitsPerExecution?: number) =>
  startExperiment({ db: r.db, temporal: r.client, taskQueue: r.taskQueue, ...(unitsPerExecution ? { unitsPerExecution } : {}) }, startExperimentSchema.parse(input), r.builder);

/** The item runs an experiment started (the units' runs are started by an activity: no parent links them). */
async function unitRuns(r: Recording, experimentId: string): Promise<string[]> {
  const rows = await r.db.experimentResult.findMany({ where: { experimentId, runId: { not: null } }, orderBy: { seq: "asc" }, select: { runId: true } });
  return rows.flatMap((row) => (row.runId ? [row.runId] : []));
}

export const TAPE_ERA: Record<TapeEraScenario, (r: Recording) => Promise<string[]>> = {
  async fork(r) {
    // Forked at the second calculator: the first calculator, the approved transfer (the tape's recorded
    // approval, asked through the tape gate) and the model calls before it replay; the rest is live.
    const graph = await saved(r, "release-fork", single({ tools: ["calculator", "ledger_transfer"], ...gatedTransfer }));
    const origin = await completedRun(r, graph, [calc("2+2"), transfer(7), calc("3*3"), "answer: all done"].join("\n"), 1);
    const forked = await forkRunWith({ db: r.db, engine: r.engine }, { runId: origin, spanId: spanOf(await readSpans(r.db, origin), "tool", "calculator", 1).id }, r.builder);
    expectThat((await waitFor(r, forked.runId, ["completed"])).output === "all done", "the fork answered");
    const results = await toolResults(r, forked.runId);
    expectThat(JSON.stringify(results.map((e) => [e.tool, e.replayed === true])) === JSON.stringify([["calculator", true], ["ledger_transfer", true], ["calculator", false]]), `replayed up to the fork point (${JSON.stringify(results.map((e) => [e.tool, e.replayed]))})`);
    return [origin, forked.runId];
  },
  async "fork-in-conversation"(r) {
    // Forked at a step of the sub-agent's conversation, its result edited: the parent and the child replay up to it.
    const graph = await saved(r, "release-fork-conversation", {
      entryAgent: "lead",
      agents: [
        { name: "lead", model: "demo/lead", subAgents: ["billing"], tools: ["calculator"] },
        { name: "billing", model: "demo/billing", description: "sums", tools: ["calculator"] },
      ],
      limits: { subAgentIdleTimeoutSeconds: 1, followUpWindowSeconds: 0 },
    });
    const origin = await completedRun(r, graph, [calc("1+1"), `message billing: ${calc("20+22")}`, "answer: lead done"].join("\n"));
    const child = await r.db.run.findFirstOrThrow({ where: { parentRunId: origin } });
    const forked = await forkRunWith({ db: r.db, engine: r.engine }, { runId: child.id, spanId: spanOf(await readSpans(r.db, child.id), "tool", "calculator", 0).id, editedToolResult: "41" }, r.builder);
    expectThat((await waitFor(r, forked.runId, ["completed"])).output === "lead done", "the fork answered");
    const forkChild = await r.db.run.findFirstOrThrow({ where: { parentRunId: forked.runId } });
    expectThat((await toolResults(r, forkChild.id))[0]?.result === "41", "the child's edited result");
    return [origin, forked.runId];
  },
  async "taped-handoff"(r) {
    // The front desk hands off to the refund specialist, whose transfer an approver signed off; forked at the
    // specialist's answer, everything before it replays: the handoff under the tape, the recorded approval.
    const frontDesk = DEMO_AGENT_GRAPHS.find((g) => g.name === "front-desk")?.graph;
    if (!frontDesk) throw new Error("no front-desk demo graph");
    const graph = await saved(r, "release-front-desk", { ...frontDesk, limits: { ...frontDesk.limits, followUpWindowSeconds: 0 } });
    const task = [
      '@front-desk: tool lookup_order {"order_id":"A-1003"}',
      "@front-desk: handoff refund-specialist: the customer wants the monitor refunded",
      '@refund-specialist: tool ledger_balance {"account":"refunds"}',
      `@refund-specialist: ${transfer(5)}`,
      "@refund-specialist: answer: refund paid",
    ].join("\n");
    const origin = await completedRun(r, graph, task, 1);
    const answer = spanOf(await readSpans(r.db, origin), "inference", null, -1);
    const forked = await forkRunWith({ db: r.db, engine: r.engine }, { runId: origin, spanId: answer.id }, r.builder);
    expectThat((await waitFor(r, forked.runId, ["completed"])).output === "refund paid", "the fork answered");
    const events = await r.engine.getEvents(forked.runId);
    expectThat(ofType(events, "handoff").length === 1, "the fork handed off");
    const results = ofType(events, "tool_call_completed");
    expectThat(results.length === 3 && results.every((e) => e.replayed === true), `every tool call replayed (${JSON.stringify(results.map((e) => [e.tool, e.replayed]))})`);
    return [origin, forked.runId];
  },
  async "taped-plan"(r) {
    // A plan under a tape runs its nodes as child workflows (an inline node calls the model itself).
    const graphName = await saved(r, "release-taped-plan", tripPlan());
    const { runId } = await startTapedRunWith(
      { db: r.db, engine: r.engine },
      {
        graphName,
        version: 1,
        task: "Plan a 3-day trip to Paris in June\n@itinerary-planner: answer: Day 1 Louvre, day 2 Orsay, day 3 Versailles",
        context: {},
        tape: { entries: [], settings: { live: "all", approvals: "reject" }, purpose: "experiment" },
        startedBy: r.builder,
      },
    );
    await waitFor(r, runId, ["completed"]);
    expectThat(ofType(await r.engine.getEvents(runId), "plan_finished")[0]?.outcome === "completed", "plan completed");
    expectThat((await r.db.run.count({ where: { parentRunId: runId } })) === 3, "three node runs");
    return [runId];
  },
  async "inline-node-retry"(r) {
    // The hotel researcher's first attempt fails (the demo model's "fail model once", per worker process and
    // task: the task is unique so a recording again fails it again); the plan retries the node, inline again.
    const { runId } = await r.engine.startRun({
      graph: tripPlan(),
      task: `Plan a 2-day trip to Oslo (${unique()})\n@hotel-researcher: fail model once\n@itinerary-planner: answer: Day 1 fjord, day 2 museums`,
    });
    await waitFor(r, runId, ["completed"]);
    const events = await r.engine.getEvents(runId);
    expectThat(ofType(events, "plan_finished")[0]?.outcome === "completed", "plan completed");
    const hotel = ofType(events, "plan_node_finished").find((e) => e.nodeId === "hotel-researcher");
    expectThat(hotel?.status === "completed" && hotel.attempts === 2, `the hotel node completed on its second attempt (${JSON.stringify(hotel)})`);
    return [runId];
  },
  async "inline-node-worker-lost"(r) {
    // A worker process of the release holds two inline nodes (activities of the plan's run) when it is killed;
    // a new worker takes the plan's next workflow task and the nodes' retried activities (attempt 2).
    const taskQueue = `${r.taskQueue}-lost-worker`;
    const spawned: ChildProcess[] = [];
    let stopWorker: (() => Promise<void>) | undefined;
    try {
      const first = await startWorkerProcess({ ...r.workerProcess, taskQueue });
      spawned.push(first);
      // worker/main.ts sets up the monitor schedule for its queue: gone before it could start a tick.
      await eventually(() => r.client.schedule.getHandle(monitorScheduleId(taskQueue)).delete().then(() => true), Boolean, "the lost worker's monitor schedule to be deleted", 30_000);
      const engine = r.engineOn(taskQueue);
      const graph = {
        ...tripPlan({ concurrency: 4, nodeRetries: 0 }),
        entryAgent: "planner",
        agents: [
          { name: "planner", model: "demo/planner" },
          { name: "writer", model: "demo/writer", description: "writes one part" },
        ],
      };
      const parts = { nodes: [{ id: "a", agent: "writer", objective: "part a", dependsOn: [] }, { id: "b", agent: "writer", objective: "part b", dependsOn: [] }, { id: "c", agent: "writer", objective: "part c", dependsOn: ["a", "b"] }] };
      const { runId } = await engine.startRun({ graph, task: `Write in parts\n@planner: return ${JSON.stringify(parts)}\n@writer: think 4000\n@writer: answer: written` });
      await eventually(
        () => Promise.all(["a", "b"].map((id) => engine.getRun(`${runId}.node-${id}-1`).catch(() => null))),
        (runs) => runs.every((run) => run?.status === "thinking"),
        "both inline nodes to be thinking",
      );
      first.kill("SIGKILL");
      await new Promise((resolve) => (first.exitCode !== null || first.signalCode !== null ? resolve(null) : first.once("exit", resolve)));
      stopWorker = await r.workerOn(taskQueue);
      expectThat((await waitFor({ engine }, runId, ["completed"])).output === "written", "the plan completed on the new worker");
      const history = await r.client.workflow.getHandle(runId).fetchHistory();
      const retried = (history.events ?? []).filter((e) => (e.activityTaskStartedEventAttributes?.attempt ?? 1) >= 2).length;
      expectThat(retried === 2, `the two nodes' activities retried (${retried})`);
      return [runId];
    } finally {
      for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await stopWorker?.();
    }
  },
  async experiment(r) {
    // Two items on two versions, one unit at a time, two units per execution (continued as new once). The
    // order's lookup replays from the item's tape; the gated transfer, unrecorded, is rejected by the policy
    // at the tape gate; the calculator runs live. Version 2 is deleted once the experiment starts: its units
    // are refused, so the workflow records them failed and goes on.
    const graph = single({ tools: ["lookup_order", "ledger_transfer", "calculator"], ...gatedTransfer });
    const graphName = await saved(r, "release-experiment", graph, graph);
    const order = '{"order_id":"A-1001","status":"taped"}';
    const name = await dataset(r, [
      item('tool lookup_order {"order_id":"A-1001"}\nanswer: taped', "taped", [{ kind: "tool_call", tool: "lookup_order", arguments: { order_id: "A-1001" }, outcome: "ok", result: order }]),
      item(`${transfer(999)} && ${calc("6*7")}\nanswer: tried`, "tried"),
    ]);
    const { experimentId, total } = await start(
      r,
      {
        dataset: name,
        targets: [
          { graph: graphName, version: 1 },
          { graph: graphName, version: 2 },
        ],
        scorers: [{ kind: "exact" }],
        concurrency: 1,
        liveTools: ["calculator"],
      },
      2,
    );
    await r.db.agentVersion.deleteMany({ where: { agent: { name: graphName }, version: 2 } });
    expectThat(total === 4, "four units");
    await experimentStatus(r, experimentId, ["completed"]);
    const rows = await r.db.experimentResult.findMany({ where: { experimentId }, orderBy: { seq: "asc" } });
    expectThat(JSON.stringify(rows.map((row) => row.status)) === JSON.stringify(["scored", "failed", "scored", "failed"]), `units scored on v1, failed on v2 (${rows.map((row) => row.status).join(", ")})`);
    const runs = await unitRuns(r, experimentId);
    const tried = ofType(await r.engine.getEvents(runs[1] ?? ""), "tool_call_completed");
    expectThat(tried.find((e) => e.tool === "ledger_transfer")?.outcome === "rejected" && tried.find((e) => e.tool === "calculator")?.outcome === "ok", "the policy rejected the transfer, the calculator ran live");
    return [experimentWorkflowId(experimentId), ...runs];
  },
  async "experiment-cancelled"(r) {
    // Cancelled while its first unit's run thinks: the unit cancels its run, the rest never start.
    const graphName = await saved(r, "release-experiment-cancel", single({}));
    const name = await dataset(r, [item("think 30000\nanswer: slow", "slow"), item("answer: never", "never")]);
    const { experimentId } = await start(r, { dataset: name, targets: [{ graph: graphName, version: 1 }], scorers: [{ kind: "exact" }], concurrency: 1 });
    const [runId] = await eventually(() => unitRuns(r, experimentId), (runs) => runs.length === 1, "the first unit's run");
    await waitFor(r, runId ?? "", ["thinking"]);
    const handle = r.client.workflow.getHandle(experimentWorkflowId(experimentId));
    await handle.cancel();
    const result: unknown = await handle.result();
    expectThat(z.object({ status: z.literal("cancelled") }).safeParse(result).success, `the experiment cancelled (${JSON.stringify(result)})`);
    await waitFor(r, runId ?? "", ["cancelled"]);
    return [experimentWorkflowId(experimentId), ...(await unitRuns(r, experimentId))];
  },
  async "monitors-tick"(r) {
    // Three ticks, as the schedule would start them: an alert fires and is delivered; the breach ends while
    // the webhook fails, so the resolution is owed (the tick gives up after the activity's retries); the next
    // tick delivers it. The monitor watches a tool no run calls, so the other scenarios' approvals never count.
    const tool = `release_probe_${unique()}`;
    await createMonitor(r.db, { name: `Release fixture ${tool}`, series: "approvals_oldest_wait", comparator: "gt", threshold: 30 * 60_000, windowMinutes: 60, filters: { tool } }, { id: r.builder.id });
    const approvalId = `release-${tool}`;
    const requestedAt = new Date(Date.now() - 45 * 60_000);
    await r.db.approvalRecord.create({
      data: { id: approvalId, runId: `run-${approvalId}`, rootRunId: `run-${approvalId}`, agentName: "main", toolName: tool, toolCallId: `call-${approvalId}`, arguments: "{}", requestedAt, expiresAt: new Date(requestedAt.getTime() + 24 * 3_600_000) },
    });
    const tick = async (n: number) => {
      const workflowId = `release-monitors-tick-${unique()}-${n}`;
      const summary: unknown = await r.client.workflow.execute("monitorsTickWorkflow", { taskQueue: r.taskQueue, workflowId, args: [] });
      return { workflowId, summary: z.object({ fired: z.number(), resolved: z.number(), delivered: z.number(), deferred: z.number() }).parse(summary) };
    };
    const fired = await tick(1);
    expectThat(fired.summary.fired === 1 && fired.summary.delivered === 1, `fired and delivered (${JSON.stringify(fired.summary)})`);
    await r.db.approvalRecord.delete({ where: { id: approvalId } });
    r.webhook.alertStatus = 500;
    const failing = await tick(2);
    r.webhook.alertStatus = 204;
    expectThat(failing.summary.resolved === 1 && failing.summary.deferred === 1, `resolved, its delivery owed (${JSON.stringify(failing.summary)})`);
    const owed = await tick(3);
    expectThat(owed.summary.delivered === 1 && owed.summary.deferred === 0, `the owed delivery sent (${JSON.stringify(owed.summary)})`);
    const posts = r.webhook.alerts.map((a) => `${a.event} ${a.status}`);
    expectThat(JSON.stringify(posts) === JSON.stringify(["alert.fired 204", "alert.resolved 500", "alert.resolved 500", "alert.resolved 500", "alert.resolved 204"]), `the webhook's posts (${posts.join(", ")})`);
    return [fired.workflowId, failing.workflowId, owed.workflowId];
  },
  async playground(r) {
    // The playground's two calls, as the web server makes them: describe an agent's tools, then one model call offering them.
    const before = new Set<string>();
    for await (const e of r.client.workflow.list({ query: "WorkflowType = 'playgroundCallWorkflow'" })) before.add(e.workflowId);
    const [agent] = requireValidGraph(single({ tools: ["calculator", "lookup_order"] })).agents;
    if (!agent) throw new Error("no agent");
    const described = await executePlayground<PlaygroundDescribeOutput>({ temporal: r.client, taskQueue: r.taskQueue }, { kind: "describe", agent, subAgents: [] }, 60_000, "Describing the agent's tools");
    expectThat(described.tools.length === 2, `two tools described (${described.tools.map((t) => t.name).join(", ")})`);
    const called = await executePlayground<PlaygroundCallOutput>(
      { temporal: r.client, taskQueue: r.taskQueue },
      {
        kind: "call",
        label: "release fixture",
        agentName: "main",
        model: "demo/test",
        temperature: 0,
        maxOutputTokens: 256,
        messages: [
          { role: "system", content: "You help." },
          { role: "user", content: calc("6*7") },
        ],
        tools: described.tools,
        timeoutMs: 60_000,
      },
      60_000,
      "The model call",
    );
    expectThat(called.kind === "call" && called.toolCalls[0]?.name === "calculator", `a calculator call proposed (${JSON.stringify(called)})`);
    const ids = await eventually(
      async () => {
        const found: string[] = [];
        for await (const e of r.client.workflow.list({ query: "WorkflowType = 'playgroundCallWorkflow'" })) if (!before.has(e.workflowId)) found.push(e.workflowId);
        return found;
      },
      (found) => found.length === 2,
      "the playground's two workflows in the visibility store",
    );
    return ids;
  },
};
