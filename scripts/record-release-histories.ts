// `npx tsx scripts/record-release-histories.ts [commit]` (default d1ec196)
// Records histories written by a released build's workflow code, for
// worker/engine-tests/release-replay.int.test.ts to replay on today's code: a
// deploy must finish every run the previous release started. The release's
// tree comes from git, its workflows are bundled as that release bundled them,
// and a worker with that bundle (and the activities of the checkout this runs
// in, which the release's workflows call by name: check out the release itself
// to record it with its own) runs one run per path of the engine against a
// Temporal dev server of its own. Every execution of every workflow a scenario
// starts, and of their child runs, is written, encoded, to
// worker/engine-tests/fixtures/release-<commit>.histories.json.
//
// A script rather than an on-demand vitest file: the engine harness reads the
// vitest global setup (inject), and a recording is a one-off per release that
// must never run as part of `npm test`.
//
// The tape-era scenarios (release-fixture.ts) start forks, taped runs,
// experiments and monitors through the web server's own functions, which
// import "server-only": like the benches that do (package.json, bench:experiment),
// the script runs under the react-server condition, and starts itself again
// with it when it was started without.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client, Connection, type WorkflowExecutionInfo } from "@temporalio/client";
// CommonJS: under tsx (Node's ESM loader) only its default export is a value.
import proto from "@temporalio/proto";
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from "@temporalio/worker";
import { parseEnv } from "../lib/config/env";
import { createDb, type Db } from "../lib/db/prisma";
import { seedDatabase } from "../lib/seed/seed";
import { createEngine, type Engine } from "../lib/engine/client";
import { createEngineContext } from "../lib/engine/engine-context";
import { createRunStarter } from "../lib/engine/start-run";
import { configuredKey } from "../lib/crypto/keys";
import { zapPayloadCodecs } from "../lib/temporal/payload-codecs";
import { CLAIM_CHECK_ENCODING } from "../lib/temporal/claim-check-codec";
import { connectWorker, createZapWorker } from "../worker/worker";
import tripPlanner from "../lib/agents/demo/trip-planner.json";
import { applyMigrations } from "./db/migrate";
import { provisionTemporalCli } from "./lib/temporal-cli";
import { spawnDevServer, waitForTemporal } from "./lib/temporal-server";
import { freePort } from "./test-support/ports";
import { TEST_AUTH_SECRET } from "./test-support/test-keys";
import { ENGINE_SCENARIOS, TAPE_ERA_SCENARIOS, UNATTENDED_ERA_SCENARIOS, type ReleaseFixture, type ReleaseScenario } from "./test-support/release-fixture";
import { eventually, expectThat, ofType, pendingApproval, ReleaseCannotReplay, startWebhookReceiver, waitFor, type Recording } from "./release-histories/recording";

const ROOT = path.resolve(import.meta.dirname, "..");
const DEFAULT_RELEASE = "d1ec196";
/** The release being recorded (its scenarios' expectations follow what that release did). */
const RECORDED_RELEASE = process.argv[2] ?? DEFAULT_RELEASE;
/** Temporal's payload limit, the highest threshold the config takes: no payload of these small runs is claim-checked, so the fixture replays without a database. */
const NO_CLAIM_CHECK_BYTES = 2 * 1024 * 1024;
/** Scenarios recorded at once: all of them together overload a shared 2-core machine. */
const SCENARIOS_AT_ONCE = 6;
const { History } = proto.temporal.api.history.v1;

/** The release's tree in a temporary directory, sharing today's node_modules (package-lock.json must be the same). */
function materialiseRelease(commit: string, dir: string): void {
  const tree = execFileSync("git", ["archive", "--format=tar", commit], { cwd: ROOT, maxBuffer: 1024 * 1024 * 1024 });
  execFileSync("tar", ["-x", "-C", dir], { input: tree });
  const lock = (rev: string) => execFileSync("git", ["show", `${rev}:package-lock.json`], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }).toString();
  if (lock(commit) !== lock("HEAD")) throw new Error(`${commit}'s package-lock.json differs from HEAD's: its workflows would be bundled with other dependencies than it shipped with`);
  // webpack resolves the symlink to /work/main/node_modules, which is what the release would have found.
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
}

/**
 * What the release's engine client stamped on every run it started
 * (AgentRunInput.behaviour, ENGINE_BEHAVIOUR at that commit), when it stamped
 * one: clients from issue 22 on (867caed) no longer do, though the constant
 * stays for the runs that carry it, so only a client that sets it counts.
 */
function releaseBehaviour(commit: string): number | undefined {
  const source = execFileSync("git", ["show", `${commit}:lib/contract/workflow.ts`], { cwd: ROOT }).toString();
  const match = /export const ENGINE_BEHAVIOUR = (\d+);/.exec(source);
  if (!match) return undefined;
  const stamps = (() => {
    try {
      return execFileSync("git", ["grep", "-l", "behaviour: ENGINE_BEHAVIOUR", commit, "--", "lib/engine"], { cwd: ROOT }).toString().trim() !== "";
    } catch {
      // git grep exits 1 when nothing matches.
      return false;
    }
  })();
  return stamps ? Number(match[1]) : undefined;
}

/**
 * Whether the release has what the tape-era scenarios drive: the tape (forks,
 * experiment units) and the workflows beside agent runs. Releases before it are
 * recorded with the engine's scenarios only, as their fixtures were.
 */
function hasTapeEra(commit: string): boolean {
  const index = execFileSync("git", ["show", `${commit}:worker/workflows/index.ts`], { cwd: ROOT }).toString();
  const workflows = ["experimentWorkflow", "monitorsTickWorkflow", "playgroundCallWorkflow"].every((name) => index.includes(name));
  try {
    execFileSync("git", ["cat-file", "-e", `${commit}:worker/workflows/tape-gate.ts`], { cwd: ROOT, stdio: "ignore" });
    return workflows;
  } catch {
    return false;
  }
}

/** Whether the release runs agents unattended and checks them in production (schedules, online evaluators, guardrails): the unattended-era scenarios. */
function hasUnattendedEra(commit: string): boolean {
  const index = execFileSync("git", ["show", `${commit}:worker/workflows/index.ts`], { cwd: ROOT }).toString();
  if (!["scheduledRunWorkflow", "onlineEvaluatorWorkflow", "onlineEvaluationBackfillWorkflow"].every((name) => index.includes(name))) return false;
  try {
    execFileSync("git", ["cat-file", "-e", `${commit}:worker/workflows/guardrails.ts`], { cwd: ROOT, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const single = (agent: Record<string, unknown>, limits: Record<string, unknown>) => ({ entryAgent: "main", agents: [{ name: "main", model: "demo/test", ...agent }], limits });

const typedGraph = {
  entryAgent: "triage",
  agents: [
    {
      name: "triage",
      model: "demo/triage",
      outputSchema: {
        schema: {
          type: "object",
          properties: { answer: { type: "string" }, confidence: { type: "number", minimum: 0, maximum: 1 } },
          required: ["answer", "confidence"],
        },
      },
    },
  ],
  limits: { followUpWindowSeconds: 0 },
};

const helpDesk = (maxAttempts: number) => ({
  entryAgent: "desk",
  agents: [
    { name: "desk", model: "demo/router", kind: "router" as const, subAgents: ["billing", "technical", "general"], router: { threshold: 0.7, defaultAgent: "general", maxAttempts } },
    { name: "billing", model: "demo/billing", description: "invoices, refunds and charges" },
    { name: "technical", model: "demo/technical", description: "errors, login problems and outages" },
    { name: "general", model: "demo/general", description: "anything else" },
  ],
  limits: { followUpWindowSeconds: 0 },
});

const trip = (plan: Record<string, unknown> = {}) => ({ ...tripPlanner, mode: "plan-and-execute" as const, plan: { ...tripPlanner.plan, ...plan }, limits: { ...tripPlanner.limits, followUpWindowSeconds: 0 } });

/** One run per path of the engine; each answers the root run id once it has taken its path. */
const SCENARIOS: Record<(typeof ENGINE_SCENARIOS)[number], (r: Recording) => Promise<string>> = {
  async "parallel-tools"(r) {
    const step = 'tool calculator {"expression":"6*7"} && tool search_notes {"query":"temporal"} && tool current_time {"time_zone":"UTC"}';
    const { runId } = await r.engine.startRun({ graph: single({ tools: ["calculator", "search_notes", "current_time"] }, { followUpWindowSeconds: 0 }), task: `${step}\n${step}\nanswer: done` });
    expectThat((await waitFor(r, runId, ["completed"])).output === "done", "parallel tools answered");
    return runId;
  },
  async "follow-up"(r) {
    // A window long enough for the follow-up to arrive as a signal, short enough to close the run soon after.
    const { runId } = await r.engine.startRun({ graph: single({ tools: ["calculator"] }, { followUpWindowSeconds: 8 }), task: 'tool calculator {"expression":"1+1"}\nanswer: one' });
    await eventually(() => r.engine.getRun(runId), (s) => s.output === "one", "the first answer");
    await r.engine.sendMessage(runId, 'tool calculator {"expression":"2+2"}\nanswer: two');
    await eventually(() => r.engine.getRun(runId), (s) => s.output === "two", "the follow-up's answer");
    return runId;
  },
  async "follow-up-after-close"(r) {
    // The run closed with no window: a message continues it as a new execution of the same workflow id.
    const { runId } = await r.engine.startRun({ graph: single({}, { followUpWindowSeconds: 0 }), task: "answer: one" });
    await waitFor(r, runId, ["completed"]);
    await eventually(() => r.engine.sendMessage(runId, "answer: two").then(() => true), Boolean, "the closed run to take a message");
    await eventually(() => r.engine.getRun(runId), (s) => s.output === "two", "the continued run's answer");
    return runId;
  },
  async "typed-repair"(r) {
    const { runId } = await r.engine.startRun({ graph: typedGraph, task: "invalid 1" });
    const summary = await waitFor(r, runId, ["completed"]);
    expectThat(summary.iteration === 2, "one repair");
    return runId;
  },
  async "router-reroute"(r) {
    const { runId } = await r.engine.startRun({ graph: helpDesk(3), task: "route technical 0.9\nroute billing 0.8\n@technical: fail model\n@billing: answer: billing fixed it" });
    const summary = await waitFor(r, runId, ["completed"]);
    expectThat(summary.routedTo === "billing", "re-routed to billing after technical failed");
    return runId;
  },
  async "router-exhausted"(r) {
    const { runId } = await r.engine.startRun({ graph: helpDesk(2), task: "route technical 0.9\nroute billing 0.8\n@technical: fail model\n@billing: fail model" });
    expectThat((await waitFor(r, runId, ["failed"])).error?.reason === "routing_exhausted", "routing_exhausted");
    return runId;
  },
  async "router-falls-back-to-failed-child"(r) {
    // The release's router took its default agent for an unconfident decision even when that agent had just
    // failed (today's runs exclude it, patch routing-offers-remaining): general twice, then routing_exhausted.
    // Releases since 6f9dc26 route the task to billing after general failed: the run completes (the path the scenario names is d1ec196's).
    const { runId } = await r.engine.startRun({ graph: helpDesk(2), task: "route general 0.9\nroute billing 0.3\n@general: fail model" });
    if (!RECORDED_RELEASE.startsWith(DEFAULT_RELEASE)) {
      expectThat((await waitFor(r, runId, ["completed"])).routedTo === "billing", "routed to billing after general failed");
      return runId;
    }
    expectThat((await waitFor(r, runId, ["failed"])).error?.reason === "routing_exhausted", "routing_exhausted");
    const attempts = ofType(await r.engine.getEvents(runId), "run_failed")[0]?.details?.attempts?.map((a) => a.agentName);
    expectThat(JSON.stringify(attempts) === JSON.stringify(["general", "general"]), `the failed default agent chosen again (attempts: ${JSON.stringify(attempts)})`);
    return runId;
  },
  async handoff(r) {
    const graph = {
      entryAgent: "front",
      agents: [
        { name: "front", model: "demo/front", tools: ["calculator"], handoffs: ["refunds"], handoffContext: "summary" as const },
        { name: "refunds", model: "demo/refunds", description: "refund specialist", handoffs: ["front"] },
      ],
      limits: { followUpWindowSeconds: 0 },
    };
    const { runId } = await r.engine.startRun({ graph, task: 'tool calculator {"expression": "2*21"}\nhandoff refunds: the customer wants money back\n@refunds: answer: refund issued' });
    expectThat((await waitFor(r, runId, ["completed"])).output === "refund issued", "the receiver answered");
    return runId;
  },
  async "plan-completed"(r) {
    const { runId } = await r.engine.startRun({ graph: trip(), task: "Plan a 3-day trip to Paris in June\n@itinerary-planner: answer: Day 1 Louvre, day 2 Orsay, day 3 Versailles" });
    await waitFor(r, runId, ["completed"]);
    expectThat(ofType(await r.engine.getEvents(runId), "plan_finished")[0]?.outcome === "completed", "plan completed");
    return runId;
  },
  async "plan-partially-failed"(r) {
    const { runId } = await r.engine.startRun({ graph: trip(), task: "Plan a trip to Rome\n@hotel-researcher: fail model" });
    await waitFor(r, runId, ["completed"]);
    expectThat(ofType(await r.engine.getEvents(runId), "plan_finished")[0]?.outcome === "partially_failed", "plan partially_failed");
    return runId;
  },
  async "plan-cancelled"(r) {
    // Mid-plan: one node done, one working, the itinerary still waiting for it.
    const { runId } = await r.engine.startRun({ graph: trip(), task: "Plan a slow trip\n@hotel-researcher: think 30000" });
    await eventually(() => r.engine.getEvents(runId), (events) => ofType(events, "plan_node_finished").some((e) => e.nodeId === "flight-researcher"), "the flight researcher to finish");
    await r.engine.cancelRun(runId);
    await waitFor(r, runId, ["cancelled"]);
    return runId;
  },
  async "plan-approved"(r) {
    const { runId } = await r.engine.startRun({ graph: trip({ approval: true }), task: "Plan a 3-day trip to Lisbon\n@itinerary-planner: answer: Day 1 Alfama, day 2 Belém, day 3 Sintra" });
    const approval = await pendingApproval(r, runId);
    await r.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: r.approver });
    await waitFor(r, runId, ["completed"]);
    return runId;
  },
  async "tool-approval"(r) {
    const graph = single(
      { tools: ["ledger_transfer", "calculator"], approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver" as const, expiresInSeconds: 600 }] },
      { followUpWindowSeconds: 0 },
    );
    const task = 'tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":3,"memo":"release"} && tool calculator {"expression":"6*7"}\nanswer: done';
    const { runId } = await r.engine.startRun({ graph, task });
    const approval = await pendingApproval(r, runId);
    await r.engine.decideApproval(runId, { approvalId: approval.id, approved: true, reason: "release fixture", decidedBy: r.approver });
    await waitFor(r, runId, ["completed"]);
    return runId;
  },
  async "sub-agent-conversation"(r) {
    const graph = {
      entryAgent: "lead",
      agents: [
        { name: "lead", model: "demo/lead", subAgents: ["billing", "shipping"] },
        { name: "billing", model: "demo/billing", description: "refunds and invoices", tools: ["calculator"] },
        { name: "shipping", model: "demo/shipping", description: "deliveries" },
      ],
      limits: { subAgentIdleTimeoutSeconds: 1, followUpWindowSeconds: 0 },
    };
    const task = ["message billing: What is 2+2? && message shipping: Where is order A-1002?", "reply billing: And doubled?", "answer: team consulted"].join("\n");
    const { runId } = await r.engine.startRun({ graph, task });
    await waitFor(r, runId, ["completed"]);
    return runId;
  },
  async "budget-ask-granted"(r) {
    // Three model calls of 600 output tokens each: the second crosses the 1,000-token budget and asks.
    const graph = single({ tools: ["calculator"] }, { followUpWindowSeconds: 0, tokenBudget: 1000, onBudget: "ask" });
    const { runId } = await r.engine.startRun({ graph, task: 'tokens 600\nrepeat 2 tool calculator {"expression":"1+1"}\nanswer: done' });
    await waitFor(r, runId, ["awaiting_approval"]);
    const approval = await pendingApproval(r, runId);
    expectThat(approval.kind === "budget", "a budget request");
    await r.engine.decideApproval(runId, { approvalId: approval.id, approved: true, editedArguments: { tokens: 5000 }, decidedBy: r.approver });
    await waitFor(r, runId, ["completed"]);
    return runId;
  },
  async "continue-as-new"(r) {
    const step = 'tool search_notes {"query":"temporal"} && tool calculator {"expression":"1+1"}';
    const graph = single({ tools: ["search_notes", "calculator"], maxIterations: 500 }, { continueAsNewAfterEvents: 200, tokenBudget: 100_000_000, followUpWindowSeconds: 0 });
    const { runId } = await r.engine.startRun({ graph, task: `${Array.from({ length: 40 }, () => step).join("\n")}\nanswer: done` });
    await waitFor(r, runId, ["completed"]);
    let executions = 0;
    for await (const _ of r.client.workflow.list({ query: `WorkflowId = '${runId}'` })) executions++;
    expectThat(executions >= 2, `continued as new (${executions} execution(s))`);
    return runId;
  },
};

type Entry = ReleaseFixture["histories"][number];
type Scenarios = Partial<Record<ReleaseScenario, (r: Recording) => Promise<string[]>>>;

/** Attempts per scenario: each one whose runs the release cannot replay itself is recorded again. */
const ATTEMPTS = 5;

/** One scenario's workflows, every execution of them and of their children encoded, once the release's own code replays all of it. */
async function recordScenario(scenario: ReleaseScenario, run: (r: Recording) => Promise<string[]>, recording: Recording, releaseBundle: { code: string }): Promise<{ entries: Entry[]; discarded: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const rootIds = await run(recording);
      const executions = await closedTree(recording.client, rootIds);
      const histories = await Promise.all(executions.map(async (e) => ({ workflowId: e.workflowId, history: await recording.client.workflow.getHandle(e.workflowId, e.runId).fetchHistory() })));
      // A history its own release cannot replay says nothing about today's code.
      for await (const result of Worker.runReplayHistories({ workflowBundle: releaseBundle }, histories)) {
        if (result.error) throw new ReleaseCannotReplay(`${result.workflowId}: ${String(result.error)}`);
      }
      const types = new Map<string, number>();
      for (const e of executions) types.set(e.type, (types.get(e.type) ?? 0) + 1);
      console.log(`${scenario}: ${executions.length} execution(s) (${executions.map((e) => e.status.toLowerCase()).join(", ")}; ${[...types].map(([type, n]) => `${n} ${type}`).join(", ")})`);
      return { entries: histories.map((h) => ({ scenario, workflowId: h.workflowId, history: Buffer.from(History.encode(h.history).finish()).toString("base64") })), discarded: attempt - 1 };
    } catch (error) {
      const cannotReplay = error instanceof ReleaseCannotReplay ? error : await stuckRunNamedIn(recording.client, error);
      if (!cannotReplay || attempt >= ATTEMPTS) throw error;
      console.log(`${scenario}: the release cannot replay its own run, recording it again (${cannotReplay.message.slice(0, 300)})`);
    }
  }
}

interface Execution {
  workflowId: string;
  runId: string;
  status: string;
  type: string;
}

/** How long a scenario's workflows may take to close once it has taken its path. */
const CLOSE_TIMEOUT_MS = 10 * 60_000;
const { WorkflowTaskFailedCause } = proto.temporal.api.enums.v1;

/**
 * Throws ReleaseCannotReplay, after terminating them, when any of `open` failed a workflow task on a
 * nondeterminism error: the release's own worker cannot replay its run (9e894a5's plain runs still met a
 * local-activity race under queries, TMPRL1100 "Cancel external WF machine does not handle this event"), so
 * the run would never close, and its history says nothing about today's code.
 */
async function failIfStuck(client: Client, open: Execution[]): Promise<void> {
  const stuck: string[] = [];
  for (const e of open) {
    const handle = client.workflow.getHandle(e.workflowId, e.runId);
    const failed = ((await handle.fetchHistory()).events ?? []).find((event) => event.workflowTaskFailedEventAttributes?.cause === WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR);
    if (!failed) continue;
    stuck.push(`${e.workflowId}: ${failed.workflowTaskFailedEventAttributes?.failure?.message ?? "nondeterminism"}`);
    await handle.terminate("release fixture: the release cannot replay this run (recorded again)").catch(() => undefined);
  }
  if (stuck.length) throw new ReleaseCannotReplay(`stuck on a nondeterminism error: ${stuck.join("; ")}`);
}

/**
 * A scenario that gave up waiting (its run never took the next step) names its run: when that run is
 * stuck on a nondeterminism error, the release could not replay it (as failIfStuck), and it is recorded again.
 */
async function stuckRunNamedIn(client: Client, error: unknown): Promise<ReleaseCannotReplay | null> {
  const text = error instanceof Error ? error.message : String(error);
  const named: Execution[] = [];
  for await (const e of client.workflow.list({ query: "ExecutionStatus = 'Running'" })) {
    if (text.includes(e.workflowId)) named.push({ workflowId: e.workflowId, runId: e.runId, status: e.status.name, type: e.type });
  }
  try {
    await failIfStuck(client, named);
    return null;
  } catch (stuck) {
    if (stuck instanceof ReleaseCannotReplay) return stuck;
    throw stuck;
  }
}

/** Every execution of the `rootIds` workflows and of their children, transitively, once all have closed (children start and continue as new while others close). */
async function closedTree(client: Client, rootIds: string[]): Promise<Execution[]> {
  const list = async (query: string): Promise<WorkflowExecutionInfo[]> => {
    const found: WorkflowExecutionInfo[] = [];
    for await (const execution of client.workflow.list({ query })) found.push(execution);
    return found;
  };
  const deadline = Date.now() + CLOSE_TIMEOUT_MS;
  let previous = -1;
  for (;;) {
    const executions: Execution[] = [];
    const pending = [...rootIds];
    const seen = new Set<string>();
    for (let id = pending.shift(); id !== undefined; id = pending.shift()) {
      if (seen.has(id)) continue;
      seen.add(id);
      for (const e of await list(`WorkflowId = '${id}'`)) executions.push({ workflowId: e.workflowId, runId: e.runId, status: e.status.name, type: e.type });
      for (const child of await list(`ParentWorkflowId = '${id}'`)) pending.push(child.workflowId);
    }
    const open = executions.filter((e) => e.status === "RUNNING");
    if (open.length === 0 && executions.length === previous) return executions;
    if (Date.now() > deadline) throw new Error(`still open after ${CLOSE_TIMEOUT_MS / 60_000} minutes: ${open.map((e) => e.workflowId).join(", ")}`);
    previous = executions.length;
    await failIfStuck(client, open);
    // Following the chain (continue-as-new) to its end, a few seconds at a time (a run may get stuck meanwhile);
    // then the visibility store catches up.
    const closed = Promise.all(open.map((e) => client.workflow.getHandle(e.workflowId).result().catch(() => undefined)));
    await Promise.race([closed, new Promise((r) => setTimeout(r, 5000))]);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** Runs `tasks` with at most `limit` in flight, answering their results in order. */
async function inBatches<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  const lane = async () => {
    for (;;) {
      const i = next++;
      const task = tasks[i];
      if (!task) return;
      results[i] = await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, lane));
  return results;
}

/** Whether this process resolves "server-only" as React's server build does (to its empty module). */
const underReactServer = () => import.meta.resolve("server-only").endsWith("/empty.js");

/** Runs this script again under the react-server condition, with the same arguments; answers its exit code. */
function againUnderReactServer(): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, "--conditions=react-server", ...process.argv.slice(1)], { stdio: "inherit" });
  // Ctrl-C reaches both (one process group): this one waits for the child's answer.
  process.on("SIGINT", () => undefined);
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

async function main(): Promise<void> {
  const commit = process.argv[2] ?? DEFAULT_RELEASE;
  const fullCommit = execFileSync("git", ["rev-parse", "--verify", `${commit}^{commit}`], { cwd: ROOT }).toString().trim();
  const tapeEra = hasTapeEra(fullCommit);
  if (tapeEra && !underReactServer()) {
    process.exitCode = await againUnderReactServer();
    return;
  }
  const unattendedEra = tapeEra && hasUnattendedEra(fullCommit);
  const scenarios: readonly ReleaseScenario[] = [...ENGINE_SCENARIOS, ...(tapeEra ? TAPE_ERA_SCENARIOS : []), ...(unattendedEra ? UNATTENDED_ERA_SCENARIOS : [])];
  const out = path.join(ROOT, "worker", "engine-tests", "fixtures", `release-${commit}.histories.json`);
  // ERROR: the runs that fail on purpose log each failure as a warning, and the runs' polling queries
  // meet closing workflows ("query task not found"): noise around the few lines this script prints.
  Runtime.install({ logger: new DefaultLogger("ERROR"), telemetryOptions: { logging: { filter: { core: "ERROR", other: "ERROR" } } } });
  const scratch = mkdtempSync(path.join(os.tmpdir(), "zap-release-"));
  const cleanups: (() => Promise<void>)[] = [async () => rmSync(scratch, { recursive: true, force: true })];
  try {
    const tree = path.join(scratch, "tree");
    mkdirSync(tree);
    materialiseRelease(fullCommit, tree);
    const behaviour = releaseBehaviour(fullCommit);
    const quiet = { info() {}, warn() {}, error: console.error, debug() {}, trace() {}, log() {} };
    const [releaseBundle, cli] = await Promise.all([bundleWorkflowCode({ workflowsPath: path.join(tree, "worker", "workflows", "index.ts"), logger: quiet }), provisionTemporalCli()]);
    // A worker process of the release (a scenario kills one) loads the same bundle.
    const bundlePath = path.join(scratch, "release-workflows.js");
    writeFileSync(bundlePath, releaseBundle.code);
    console.log(`bundled ${fullCommit.slice(0, 7)}'s workflows (${Math.round(releaseBundle.code.length / 1024)} KB); runs stamped behaviour ${behaviour ?? "(none)"}; ${scenarios.length} scenarios`);

    const [port, uiPort, httpPort, metricsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const address = `127.0.0.1:${port}`;
    const server = spawnDevServer({ cli, host: "127.0.0.1", port, uiPort, httpPort, metricsPort, headless: true, dbFile: path.join(scratch, "temporal.db"), namespace: "default", logFile: path.join(scratch, "temporal.log") });
    cleanups.push(async () => {
      if (server.exitCode !== null || server.signalCode !== null) return;
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    });
    const databaseUrl = `file:${path.join(scratch, "zap.db")}`;
    await Promise.all([waitForTemporal({ address }, server, 60_000), applyMigrations(databaseUrl)]);
    const db: Db = createDb(databaseUrl);
    cleanups.push(() => db.$disconnect());
    await seedDatabase(db, { demo: true });
    const approverRow = await db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
    const builderRow = await db.user.findUniqueOrThrow({ where: { email: "builder@zap.local" } });
    const webhook = await startWebhookReceiver();
    cleanups.push(() => webhook.close());

    const taskQueue = "release-histories";
    const config = parseEnv({
      TEMPORAL_ADDRESS: address,
      DATABASE_URL: databaseUrl,
      TEMPORAL_TASK_QUEUE: taskQueue,
      AUTH_SECRET: TEST_AUTH_SECRET,
      ZAP_PAYLOAD_OFFLOAD_BYTES: String(NO_CLAIM_CHECK_BYTES),
      // Monitor alerts and approval notifications go to the local receiver (a private host, so allowed by name).
      ZAP_WEBHOOK_URL: webhook.url,
      ZAP_WEBHOOK_SECRET: "release-fixture-webhook-secret",
      ZAP_EGRESS_ALLOW_HOSTS: webhook.host,
    });
    const connection = await Connection.connect({ address });
    cleanups.push(() => connection.close());
    const client = new Client({ connection, dataConverter: { payloadCodecs: zapPayloadCodecs(db, config) } });
    const engineOn = (queue: string): Engine => {
      const deps = { temporal: client, db, taskQueue: queue, decisionKey: configuredKey(config, "approval-decisions") };
      // Today's client in every respect but the start, which stamps what the release's client stamped.
      const context = createEngineContext(deps);
      const startWorkflow: typeof context.startWorkflow = (runId, args) => context.startWorkflow(runId, behaviour === undefined ? args : { ...args, behaviour });
      return { ...createEngine(deps), ...createRunStarter({ ...context, startWorkflow }) };
    };
    const workerOn = async (queue: string): Promise<() => Promise<void>> => {
      const workerConnection = await connectWorker(config);
      const { worker, mcp } = await createZapWorker({ config, db, connection: workerConnection, taskQueue: queue, workflowBundle: releaseBundle, payloadCodecs: zapPayloadCodecs(db, config) });
      const running = worker.run();
      let stopped = false;
      const stop = async () => {
        if (stopped) return;
        stopped = true;
        worker.shutdown();
        await running.catch(() => undefined);
        await mcp.closeAll();
        await workerConnection.close();
      };
      cleanups.push(stop);
      return stop;
    };
    await workerOn(taskQueue);

    const recording: Recording = {
      engine: engineOn(taskQueue),
      client,
      db,
      taskQueue,
      approver: { id: approverRow.id, email: approverRow.email, role: approverRow.role },
      builder: { id: builderRow.id, email: builderRow.email, name: builderRow.name ?? "builder", role: "builder" },
      webhook,
      engineOn,
      workerOn,
      workerProcess: { temporalAddress: address, databaseUrl, env: { ZAP_WORKFLOW_BUNDLE: bundlePath, ZAP_PAYLOAD_OFFLOAD_BYTES: String(NO_CLAIM_CHECK_BYTES), ZAP_MONITOR_INTERVAL_SECONDS: "3600" } },
    };
    const all: Scenarios = {};
    for (const name of ENGINE_SCENARIOS) {
      const run = SCENARIOS[name];
      all[name] = async (r) => [await run(r)];
    }
    if (tapeEra) {
      // Imported only now: its server-only modules load under the react-server condition checked above.
      const { TAPE_ERA } = await import("./release-histories/tape-era-scenarios");
      for (const name of TAPE_ERA_SCENARIOS) all[name] = TAPE_ERA[name];
    }
    if (unattendedEra) {
      const { UNATTENDED_ERA } = await import("./release-histories/unattended-era-scenarios");
      for (const name of UNATTENDED_ERA_SCENARIOS) all[name] = UNATTENDED_ERA[name];
    }
    const recorded = await inBatches(
      scenarios.map((scenario) => () => {
        const run = all[scenario];
        if (!run) throw new Error(`no recording for scenario ${scenario}`);
        return recordScenario(scenario, run, recording, releaseBundle);
      }),
      SCENARIOS_AT_ONCE,
    );
    const histories = recorded.flatMap((r) => r.entries);
    // The fixture must stand on its own: no payload by reference to this database.
    const claimChecked = histories.filter((h) => Buffer.from(h.history, "base64").includes(CLAIM_CHECK_ENCODING));
    if (claimChecked.length) throw new Error(`claim-checked payloads in ${claimChecked.map((h) => h.workflowId).join(", ")}`);
    const discarded = recorded.reduce((n, r) => n + r.discarded, 0);
    if (discarded) console.log(`${discarded} recording(s) discarded: ${fullCommit.slice(0, 7)}'s own code could not replay them`);

    const fixture: ReleaseFixture = { release: fullCommit, recordedAt: new Date().toISOString(), histories };
    writeFileSync(out, `${JSON.stringify(fixture)}\n`);
    console.log(`wrote ${histories.length} histories of ${scenarios.length} scenarios to ${path.relative(ROOT, out)} (${Math.round(JSON.stringify(fixture).length / 1024)} KB)`);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error("cleanup:", error));
  }
}

await main();
