// Worker Versioning on the real dev server: two builds of the workflow code
// whose runs cannot replay on each other poll ONE task queue. Each run stays on
// the build that started it (its workflow tasks, its child runs) whichever
// build is current when it resumes, both ways: started on today's build and
// resumed while the next one is current, and the reverse after a rollback. A
// run moves between builds only when an operator moves it, which is safe for a
// change behind a patch marker and not for one without. Last, worker processes
// settle which build is current at start-up, and the operator command promotes.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { randomUUID } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { bundleWorkflowCode, Worker } from "@temporalio/worker";
import { temporal } from "@temporalio/proto";
import { eventually, sharedWorkflowBundle, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { createClaimCheckCodec } from "../../lib/temporal/claim-check-codec";
import { currentBuildId, deploymentVersions, openRunsQuery, setCurrentBuild, type DeploymentRef } from "../../lib/temporal/worker-deployments";
import { startWorkerProcess, stopWorkerProcess } from "../../scripts/test-support/worker-process";
import { run } from "../../scripts/lib/run";
import { workflowBundleBuildId } from "../versioning/worker-version";
import { scaledWait } from "../../scripts/test-support/wait-scale";

const EventType = temporal.api.enums.v1.EventType;
const PINNED = temporal.api.enums.v1.VersioningBehavior.VERSIONING_BEHAVIOR_PINNED;

let h: EngineHarness;
let ref: DeploymentRef;
const today = () => sharedWorkflowBundle();
/** The next build: today's workflows, each run starting with an unpatched timer (fixtures/next-build/unpatched.ts). */
let next: { code: string };
/** The same change behind a patch marker (fixtures/next-build/patched.ts). */
let nextPatched: { code: string };
/** The deployment's current build after its first worker started, and after the other builds' workers joined. */
const currentAfter = { firstWorker: null as string | null, laterWorkers: null as string | null };

async function bundle(file: string): Promise<{ code: string }> {
  const quiet = { info() {}, warn() {}, error: console.error, debug() {}, trace() {}, log() {} };
  return bundleWorkflowCode({ workflowsPath: path.join(import.meta.dirname, "fixtures", "next-build", file), logger: quiet });
}

beforeAll(async () => {
  h = await startEngineHarness({ worker: false, env: { ZAP_WORKER_VERSIONING: "true" } });
  const versioning = h.config.temporal.workerVersioning;
  if (!versioning) throw new Error("ZAP_WORKER_VERSIONING did not turn versioning on");
  ref = { namespace: h.config.temporal.namespace, deploymentName: versioning.deploymentName };
});
afterAll(async () => h?.stop());

/**
 * A lead that needs an approval for a transfer, then works through enough calculator calls to continue
 * as new, then messages a sub-agent (a child run of the continued execution), then answers.
 */
async function startGatedRun(memo: string): Promise<string> {
  const graph = {
    entryAgent: "lead",
    agents: [
      {
        name: "lead",
        model: "demo/lead",
        maxIterations: 100,
        tools: ["ledger_transfer", "calculator"],
        subAgents: ["helper"],
        approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver" as const, expiresInSeconds: 600 }],
      },
      { name: "helper", model: "demo/helper", description: "does sums", tools: ["calculator"] },
    ],
    limits: { followUpWindowSeconds: 0, subAgentIdleTimeoutSeconds: 1, continueAsNewAfterEvents: 200 },
  };
  const transfer = JSON.stringify({ from_account: "operating", to_account: "refunds", amount: 1, memo });
  const sums = Array.from({ length: 40 }, (_, i) => `tool calculator {"expression":"${i}+1"}`).join("\n");
  const { runId } = await h.engine.startRun({ graph, task: `tool ledger_transfer ${transfer}\n${sums}\nmessage helper: What is 1+1?\nanswer: done` });
  await waitForStatus(h.engine, runId, ["awaiting_approval"]);
  return runId;
}

/** Approves the run's pending transfer: the run resumes (a new workflow task) and starts its child run. */
async function approve(runId: string): Promise<void> {
  const approver = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
  const [approval] = await h.engine.getPendingApprovals(runId);
  if (!approval) throw new Error(`run ${runId} has no pending approval`);
  await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, reason: "versioning test", decidedBy: { id: approver.id, email: approver.email, role: approver.role } });
}

async function openRunsOn(buildId: string): Promise<number> {
  return (await h.client.workflow.count(openRunsQuery(ref.deploymentName, buildId))).count;
}

interface Execution {
  workflowId: string;
  runId: string;
  history: temporal.api.history.v1.IHistory;
}

/** Every execution of the run and of its child runs, with its history (children included once they are listed). */
async function runTree(runId: string): Promise<Execution[]> {
  const listed = await eventually(
    async () => {
      const found: { workflowId: string; runId: string }[] = [];
      for await (const e of h.client.workflow.list({ query: `WorkflowId = '${runId}' OR ParentWorkflowId = '${runId}'` })) found.push({ workflowId: e.workflowId, runId: e.runId });
      return found;
    },
    (found) => found.some((e) => e.workflowId !== runId),
    20_000,
    `run ${runId}'s child run to be listed`,
  );
  return Promise.all(listed.map(async (e) => ({ ...e, history: await h.client.workflow.getHandle(e.workflowId, e.runId).fetchHistory() })));
}

function events(history: temporal.api.history.v1.IHistory, type: temporal.api.enums.v1.EventType) {
  return (history.events ?? []).filter((event) => event.eventType === type);
}

/** The builds that completed the execution's workflow tasks, in order, without repeats. */
function buildsThatWorked(history: temporal.api.history.v1.IHistory): string[] {
  const builds = events(history, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED).map((event) => event.workflowTaskCompletedEventAttributes?.deploymentVersion?.buildId ?? "(unversioned)");
  return builds.filter((build, i) => build !== builds[i - 1]);
}

/** Asserts that every execution of the run's tree (continued-as-new ones too) ran on `buildId` alone, pinned there, without a failed workflow task. */
async function expectRunTreeOn(runId: string, buildId: string): Promise<Execution[]> {
  const tree = await runTree(runId);
  expect(tree.filter((e) => e.workflowId === runId).length, `run ${runId} continued as new`).toBeGreaterThan(1);
  for (const execution of tree) {
    const what = `${execution.workflowId} / ${execution.runId}`;
    // UNHANDLED_COMMAND is the server refusing a task's completion because new events (a child's reply) arrived
    // meanwhile: the worker runs the task again with them. Any other failed task (nondeterminism above all) fails.
    const failedTasks = events(execution.history, EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED).filter(
      (event) => event.workflowTaskFailedEventAttributes?.cause !== temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND,
    );
    expect(failedTasks, `${what}: no workflow task failed (no nondeterminism)`).toEqual([]);
    expect(buildsThatWorked(execution.history), `${what}: every workflow task completed on the build the run started on`).toEqual([buildId]);
    const info = (await h.client.workflow.getHandle(execution.workflowId, execution.runId).describe()).raw.workflowExecutionInfo?.versioningInfo;
    expect({ behavior: info?.behavior, buildId: info?.deploymentVersion?.buildId }, `${what}: pinned to its build`).toEqual({ behavior: PINNED, buildId });
  }
  return tree;
}

function startedAt(execution: Execution): number {
  const time = execution.history.events?.[0]?.eventTime;
  return (time?.seconds?.toNumber() ?? 0) * 1000 + Math.floor((time?.nanos ?? 0) / 1e6);
}

function replay(execution: Execution, workflowBundle: { code: string }): Promise<void> {
  const dataConverter = { payloadCodecs: [createClaimCheckCodec({ db: h.db, thresholdBytes: h.config.temporal.payloadOffloadBytes })] };
  return Worker.runReplayHistory({ workflowBundle, dataConverter }, execution.history, execution.workflowId);
}

// The two describes run side by side (describe.concurrent): the worker processes' story has a deployment and task queue
// of its own. The in-process builds' tests run in order (it.sequential): they set and roll back one deployment's current build.
describe.concurrent("worker versioning: two builds on one task queue", () => {
  beforeAll(async () => {
    // Workers come here, one per build, all on the harness's one task queue.
    [next, nextPatched] = await Promise.all([bundle("unpatched.ts"), bundle("patched.ts")]);
    // Three builds poll this harness's one task queue from here on, as workers do during a deploy (ZAP_WORKER_PROMOTE=if-none).
    await h.startWorker();
    currentAfter.firstWorker = await currentBuildId(h.client.workflowService, ref);
    await h.startWorker({ workflowBundle: next });
    await h.startWorker({ workflowBundle: nextPatched });
    currentAfter.laterWorkers = await currentBuildId(h.client.workflowService, ref);
  }, scaledWait(180_000));

  it.sequential("finishes every run on the build that started it, with the other build current, both ways", async () => {
    const todayId = workflowBundleBuildId(today().code);
    const nextId = workflowBundleBuildId(next.code);
    expect(nextId, "a change of workflow code is a new build id").not.toBe(todayId);
    const service = h.client.workflowService;

    // The deployment's first worker made its build current; later builds' workers poll, idle, until a deploy promotes one.
    expect(currentAfter.firstWorker, "the first worker's build is current").toBe(todayId);
    expect(currentAfter.laterWorkers, "a new build waits to be promoted").toBe(todayId);
    await setCurrentBuild(service, ref, todayId);
    const startedOnToday = await startGatedRun("started on today's build");
    expect(await setCurrentBuild(service, ref, nextId)).toEqual({ outcome: "promoted", previous: todayId });
    const startedOnNext = await startGatedRun("started on the next build");

    // What an operator checks before retiring a build's workers: its open runs (visibility is eventually consistent).
    await eventually(() => openRunsOn(todayId), (n) => n === 1, 20_000, "one open run on today's build");
    await eventually(() => openRunsOn(nextId), (n) => n === 1, 20_000, "one open run on the next build");

    // Started on today's build, resumed while the next one is current: it stays on today's.
    await approve(startedOnToday);
    expect((await waitForStatus(h.engine, startedOnToday, ["completed", "failed"])).output).toBe("done");
    // The reverse after a rollback: started on the next build, resumed while today's is current again.
    expect(await setCurrentBuild(service, ref, todayId)).toEqual({ outcome: "promoted", previous: nextId });
    await approve(startedOnNext);
    expect((await waitForStatus(h.engine, startedOnNext, ["completed", "failed"])).output).toBe("done");
    // And a run started after the rollback goes to today's build.
    const afterRollback = await startGatedRun("started after the rollback");
    await approve(afterRollback);
    expect((await waitForStatus(h.engine, afterRollback, ["completed", "failed"])).output).toBe("done");

    const onToday = [...(await expectRunTreeOn(startedOnToday, todayId)), ...(await expectRunTreeOn(afterRollback, todayId))];
    const onNext = await expectRunTreeOn(startedOnNext, nextId);
    await eventually(() => openRunsOn(nextId), (n) => n === 0, 20_000, "the next build drained");

    // The two builds really are incompatible: a root run replays on its own build and fails on the other one.
    for (const [ran, own, other] of [[onToday, today(), next], [onNext, next, today()]] as const) {
      for (const execution of ran.filter((e) => e.workflowId === startedOnToday || e.workflowId === startedOnNext)) {
        await expect(replay(execution, own), `${execution.workflowId} replays on its own build`).resolves.toBeUndefined();
        await expect(replay(execution, other), `${execution.workflowId} does not replay on the other build`).rejects.toThrow(/nondetermin/i);
      }
    }
  }, scaledWait(180_000));

  it.sequential("moves a run onto a build whose change is patched, and it finishes there without a nondeterminism error", async () => {
    const todayId = workflowBundleBuildId(today().code);
    const patchedId = workflowBundleBuildId(nextPatched.code);
    const service = h.client.workflowService;
    await setCurrentBuild(service, ref, todayId);
    const runId = await startGatedRun("moved to the patched build");

    // What `temporal workflow update-options --versioning-override-build-id` does: the run's next task goes to that build.
    await moveRun(runId, patchedId);
    await approve(runId);
    expect((await waitForStatus(h.engine, runId, ["completed", "failed"])).output).toBe("done");
    // The run's executions in the order they ran (the move reaches its continued-as-new executions too).
    const chain = (await runTree(runId)).filter((e) => e.workflowId === runId).sort((x, y) => startedAt(x) - startedAt(y));
    for (const execution of chain) expect(events(execution.history, EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED), "no workflow task failed").toEqual([]);
    const builds = chain.flatMap((e) => buildsThatWorked(e.history)).filter((build, i, all) => build !== all[i - 1]);
    expect(builds, "started on today's build, finished on the patched one").toEqual([todayId, patchedId]);
    for (const execution of chain) await expect(replay(execution, nextPatched)).resolves.toBeUndefined();
  }, scaledWait(120_000));

  it.sequential("fails a run moved onto a build whose change is not patched (what pinning prevents)", async () => {
    const todayId = workflowBundleBuildId(today().code);
    const nextId = workflowBundleBuildId(next.code);
    await setCurrentBuild(h.client.workflowService, ref, todayId);
    const runId = await startGatedRun("moved to the unpatched build");

    await moveRun(runId, nextId);
    // Any event wakes the run on the build it was moved to; a signal's workflow task is recorded (an
    // approval's update would run as a speculative task, whose failure leaves no event behind).
    await h.client.workflow.getHandle(runId).signal("versioningTestWake");
    const evidence = await eventually(() => nondeterminismOf(runId), (found) => /nondetermin/i.test(found), 60_000, "the moved run to fail on that build");
    expect(evidence).toMatch(/nondetermin/i);
    await h.client.workflow.getHandle(runId).terminate("versioning test: a run that cannot continue on this build");
  }, scaledWait(120_000));
});

describe.concurrent("worker versioning: worker processes and the operator's promote command", () => {
  it("makes the first build current, leaves a later build waiting, and promotes it on command", async () => {
    // A deployment of its own (named after its task queue), so promotions here touch no other test.
    const taskQueue = `it-versioning-${randomUUID()}`;
    const deployment: DeploymentRef = { namespace: ref.namespace, deploymentName: taskQueue };
    const service = h.client.workflowService;
    const worker = (buildId: string) =>
      startWorkerProcess({
        temporalAddress: h.config.temporal.address,
        taskQueue,
        databaseUrl: h.database.url,
        env: { ZAP_WORKER_VERSIONING: "true", ZAP_WORKER_BUILD_ID: buildId, ZAP_WORKFLOW_BUNDLE: inject("workflowBundlePath") },
      });
    const children: ChildProcess[] = [];
    try {
      children.push(await worker("release-1"));
      await eventually(() => currentBuildId(service, deployment), (current) => current === "release-1", 20_000, "the first worker's build to become current");
      children.push(await worker("release-2"));
      await eventually(() => deploymentVersions(service, deployment), (versions) => versions.some((v) => v.buildId === "release-2"), 20_000, "release-2 to poll");
      expect(await currentBuildId(service, deployment), "a later build waits to be promoted").toBe("release-1");

      const promoted = await run(process.execPath, ["--import", "tsx", "worker/versioning/cli.ts", "promote", "release-2"], {
        env: { ...process.env, TEMPORAL_ADDRESS: h.config.temporal.address, TEMPORAL_TASK_QUEUE: taskQueue },
      });
      expect(promoted.code, promoted.stderr).toBe(0);
      expect(promoted.stdout).toContain(`${taskQueue}: release-2 is now current (was release-1)`);
      expect(await currentBuildId(service, deployment)).toBe("release-2");
    } finally {
      await Promise.all(children.map((child) => stopWorkerProcess(child)));
    }
  }, scaledWait(120_000));
});

/**
 * How the run fails on the build it is on. A failed workflow task is recorded with its cause, unless an
 * earlier attempt timed out (a loaded machine): later failures are then transient and unrecorded, and
 * a query, which that build answers by replaying the run, shows the same error.
 */
async function nondeterminismOf(runId: string): Promise<string> {
  const handle = h.client.workflow.getHandle(runId);
  const history = await handle.fetchHistory();
  const failed = events(history, EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED);
  const NON_DETERMINISTIC = temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR;
  if (failed.length > 0) return failed.map((e) => (e.workflowTaskFailedEventAttributes?.cause === NON_DETERMINISTIC ? "nondeterminism" : `cause ${e.workflowTaskFailedEventAttributes?.cause}`)).join(", ");
  return h.client.connection.withDeadline(Date.now() + 5_000, () => handle.query("__stack_trace")).then(
    () => `the query was answered; last events: ${(history.events ?? []).slice(-8).map((e) => `${EventType[e.eventType ?? 0]} ${e.workflowTaskCompletedEventAttributes?.deploymentVersion?.buildId ?? ""}`.trim()).join(", ")}`,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
}

/** Pins an open run to another build of the deployment (a versioning override). */
async function moveRun(runId: string, buildId: string): Promise<void> {
  // Only a run at rest: a workflow task in flight finishes on the old build, and its worker may be handed
  // the run's next task in the reply (a signal that arrived meanwhile) without the new routing.
  const handle = h.client.workflow.getHandle(runId);
  await eventually(async () => (await handle.describe()).raw.pendingWorkflowTask ?? null, (pending) => pending === null, 20_000, `run ${runId} to be at rest`);
  await h.client.workflowService.updateWorkflowExecutionOptions({
    namespace: ref.namespace,
    workflowExecution: { workflowId: runId },
    workflowExecutionOptions: {
      versioningOverride: {
        pinned: {
          behavior: temporal.api.workflow.v1.VersioningOverride.PinnedOverrideBehavior.PINNED_OVERRIDE_BEHAVIOR_PINNED,
          version: { deploymentName: ref.deploymentName, buildId },
        },
      },
    },
    updateMask: { paths: ["versioning_override"] },
  });
}
