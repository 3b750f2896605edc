// A deploy replaces the worker under runs the previous release started: each
// of them must replay on today's workflow code, or it is stuck on a failing
// workflow task. Each fixture holds one run of each path of the engine (and its
// child runs, every execution), recorded by a release's workflow code
// (scripts/record-release-histories.ts): d1ec196, before issue 22's changes,
// 6f9dc26, f58bed5 and 9e894a5; each replays here on today's bundle, with no
// database (nothing was claim-checked) and no patch marker of today in it.
// 9e894a5's also holds the workflows the others lack: taped runs (forks,
// experiment units; a handoff, a conversation and a plan under the tape),
// inline plan nodes retried, the experiment, the monitor tick and the playground.
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { readFileSync } from "node:fs";
import path from "node:path";
import { DefaultLogger, Worker } from "@temporalio/worker";
import { temporal } from "@temporalio/proto";
import { sharedWorkflowBundle } from "../../scripts/test-support/engine-harness";
import { installRuntime } from "../../scripts/test-support/temporal-runtime";
import { CLAIM_CHECK_ENCODING } from "../../lib/temporal/claim-check-codec";
import { ENGINE_SCENARIOS, RELEASE_FIXTURE_SCENARIOS, TAPE_ERA_SCENARIOS, type ReleaseFixture, type ReleaseScenario } from "../../scripts/test-support/release-fixture";

/**
 * The releases whose runs today's code must finish: the one before issue 22, the last one landed before
 * issue 27, f58bed5, the engine just before the tape (forks, experiments) changed workflow code, and
 * 9e894a5, the tape's engine (taped calls in history) before the next change of workflow code, and 79182c2,
 * the engine of stop 58 (steps in history, guardrails, the follow-up policy, spend limits, online evaluators, schedules).
 */
const RELEASES = ["d1ec196", "6f9dc26", "f58bed5", "9e894a5", "79182c2"] as const;
type Release = (typeof RELEASES)[number];
/** What each fixture holds: the tape-era scenarios were first recorded from 9e894a5 (the others lack the tape, or nobody recorded them). */
const SCENARIOS_OF: Record<Release, readonly ReleaseScenario[]> = { d1ec196: ENGINE_SCENARIOS, "6f9dc26": ENGINE_SCENARIOS, f58bed5: ENGINE_SCENARIOS, "9e894a5": [...ENGINE_SCENARIOS, ...TAPE_ERA_SCENARIOS], "79182c2": RELEASE_FIXTURE_SCENARIOS };
/** Small enough to commit and to read in a test; 9e894a5's 26 scenarios (42 executions) take about 1.7 MB, 79182c2's 34 (61) about 2.9 MB. */
const MAX_FIXTURE_BYTES = 3 * 1024 * 1024;
const RELEASE: Release = "d1ec196";
const fixtureOf = (release: Release) => JSON.parse(readFileSync(path.join(import.meta.dirname, "fixtures", `release-${release}.histories.json`), "utf8")) as ReleaseFixture;

const { EventType } = temporal.api.enums.v1;
const decodeFixture = (fixture: ReleaseFixture) =>
  fixture.histories.map(({ scenario, workflowId, history }) => {
    const bytes = Buffer.from(history, "base64");
    return { scenario, workflowId, bytes, history: temporal.api.history.v1.History.decode(bytes) };
  });
type Recorded = ReturnType<typeof decodeFixture>[number];

const typeName = (type: temporal.api.enums.v1.EventType | null | undefined) => String(EventType[type ?? 0]).replace(/^EVENT_TYPE_/, "");

/** The patch ids an execution recorded (the SDK's "core_patch" markers, whose "patch-data" is JSON `{id}`). */
function patchesOf(h: Recorded): string[] {
  return h.history.events.flatMap((e) => {
    const marker = e.markerRecordedEventAttributes;
    const data = marker?.markerName === "core_patch" ? marker.details?.["patch-data"]?.payloads?.[0]?.data : undefined;
    if (!data) return [];
    try {
      const parsed = z.object({ id: z.string() }).safeParse(JSON.parse(Buffer.from(data).toString("utf8")));
      return parsed.success ? [parsed.data.id] : [];
    } catch {
      // Not the SDK's JSON: no patch this test knows.
      return [];
    }
  });
}

/** How many of `names` the histories hold, by name. */
function tally(names: (string | null | undefined)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of names) if (name) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

/** What a scenario's histories show of the path it took, read from their events alone. */
function shapeOf(histories: Recorded[]) {
  const count = (h: Recorded, type: temporal.api.enums.v1.EventType) => h.history.events.filter((e) => e.eventType === type).length;
  const sum = (list: Recorded[], type: temporal.api.enums.v1.EventType) => list.reduce((n, h) => n + count(h, type), 0);
  const roots = histories.filter((h) => !h.history.events[0]?.workflowExecutionStartedEventAttributes?.parentWorkflowExecution);
  const events = histories.flatMap((h) => h.history.events);
  return {
    /** Executions of each workflow type (children included). */
    workflowTypes: tally(histories.map((h) => h.history.events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name)),
    /** Activities scheduled, by type, in every execution. */
    activities: tally(events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)),
    /** Activities that completed or failed on a later attempt than their first (a lost worker, a failing call). */
    activityRetries: events.filter((e) => (e.activityTaskStartedEventAttributes?.attempt ?? 1) > 1).length,
    /** Activities that failed for good (out of attempts, or a non-retryable failure). */
    activitiesFailed: events.filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED).length,
    /** Executions that ran with a tape (the tape-replay patch is asked only by them). */
    tapedExecutions: histories.filter((h) => patchesOf(h).includes("tape-replay")).length,
    executions: histories.length,
    /** How each execution of the run itself ended, in order. */
    rootEnds: roots.map((h) => typeName(h.history.events.at(-1)?.eventType)),
    childrenStarted: sum(roots, EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED),
    childrenFailed: sum(roots, EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_FAILED),
    childrenCompleted: sum(roots, EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED),
    signalsReceived: sum(roots, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED),
    signalsSent: sum(roots, EventType.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED),
    updates: sum(roots, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED),
    cancelRequests: sum(roots, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED),
    timersFired: sum(roots, EventType.EVENT_TYPE_TIMER_FIRED),
  };
}

type Shape = ReturnType<typeof shapeOf>;

/** The path each scenario is named for, as its histories must show it (the recorder checked the runs' own events too). */
const EXPECTED: Record<ReleaseScenario, Partial<Shape>> = {
  "parallel-tools": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], childrenStarted: 0 },
  // The follow-up arrives as a signal within the window, which then runs out.
  "follow-up": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], signalsReceived: 1, timersFired: 1 },
  // A message to a closed run: a second execution of the same workflow id.
  "follow-up-after-close": { executions: 2, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED", "WORKFLOW_EXECUTION_COMPLETED"] },
  "typed-repair": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"] },
  "router-reroute": { executions: 3, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], childrenStarted: 2, childrenFailed: 1, childrenCompleted: 1 },
  "router-exhausted": { executions: 3, rootEnds: ["WORKFLOW_EXECUTION_FAILED"], childrenStarted: 2, childrenFailed: 2 },
  "router-falls-back-to-failed-child": { executions: 3, rootEnds: ["WORKFLOW_EXECUTION_FAILED"], childrenStarted: 2, childrenFailed: 2 },
  handoff: { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], childrenStarted: 0 },
  "plan-completed": { executions: 4, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], childrenStarted: 3, childrenCompleted: 3 },
  // The hotel researcher fails twice (a retry), the itinerary is skipped, the flights complete.
  "plan-partially-failed": { executions: 4, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], childrenStarted: 3, childrenFailed: 2, childrenCompleted: 1 },
  "plan-cancelled": { executions: 3, rootEnds: ["WORKFLOW_EXECUTION_CANCELED"], childrenStarted: 2, childrenCompleted: 1, cancelRequests: 1 },
  "plan-approved": { executions: 4, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], updates: 1, childrenStarted: 3, childrenCompleted: 3 },
  "tool-approval": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], updates: 1 },
  // Two conversations at once, one continued with a reply (a signal to the child).
  "sub-agent-conversation": { executions: 3, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], childrenStarted: 2, signalsSent: 1 },
  "budget-ask-granted": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], updates: 1 },
  "continue-as-new": { rootEnds: ["WORKFLOW_EXECUTION_CONTINUED_AS_NEW", "WORKFLOW_EXECUTION_COMPLETED"] },
  // Scenarios with several workflows of their own list each one's ends in start order. A fork is the
  // origin (its approval an update) and the fork, which asks the tape gate for the recorded approval.
  fork: { executions: 2, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED", "WORKFLOW_EXECUTION_COMPLETED"], updates: 1, tapedExecutions: 1, activities: { tapeGate: 1 } },
  // The fork's conversation is a taped child run too.
  "fork-in-conversation": { executions: 4, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED", "WORKFLOW_EXECUTION_COMPLETED"], childrenStarted: 2, tapedExecutions: 2 },
  // A handoff stays in its run; the fork replays the receiver's approved transfer through the tape gate.
  "taped-handoff": { executions: 2, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED", "WORKFLOW_EXECUTION_COMPLETED"], childrenStarted: 0, updates: 1, tapedExecutions: 1, activities: { tapeGate: 1 } },
  // A taped plan runs its nodes as child workflows, taped too.
  "taped-plan": { executions: 4, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], childrenStarted: 3, childrenCompleted: 3, tapedExecutions: 4 },
  // Inline nodes: the hotel node's first attempt failed and the plan ran a second (four node activities for three nodes).
  "inline-node-retry": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], childrenStarted: 0, activities: { runPlanNode: 4 }, tapedExecutions: 0 },
  // Two node activities lost with their worker, each completed on its second attempt.
  "inline-node-worker-lost": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], childrenStarted: 0, activities: { runPlanNode: 3 }, activityRetries: 2 },
  // The experiment (continued as new after two units) and its two scored units' runs; the two refused units failed.
  experiment: {
    executions: 4,
    workflowTypes: { experimentWorkflow: 2, agentRunWorkflow: 2 },
    rootEnds: ["WORKFLOW_EXECUTION_CONTINUED_AS_NEW", "WORKFLOW_EXECUTION_COMPLETED", "WORKFLOW_EXECUTION_COMPLETED", "WORKFLOW_EXECUTION_COMPLETED"],
    activities: { runExperimentUnit: 4, failExperimentUnit: 2, finishExperiment: 1, tapeGate: 1 },
    activitiesFailed: 2,
    tapedExecutions: 2,
  },
  // Cancelled: the experiment returns "cancelled" after its unit cancelled the unit's run.
  "experiment-cancelled": {
    executions: 2,
    workflowTypes: { experimentWorkflow: 1, agentRunWorkflow: 1 },
    rootEnds: ["WORKFLOW_EXECUTION_COMPLETED", "WORKFLOW_EXECUTION_CANCELED"],
    cancelRequests: 2,
    activities: { runExperimentUnit: 1, finishExperiment: 1 },
    tapedExecutions: 1,
  },
  // Fired and delivered; resolved with the delivery failing three attempts (owed); the owed delivery sent.
  "monitors-tick": {
    executions: 3,
    workflowTypes: { monitorsTickWorkflow: 3 },
    rootEnds: ["WORKFLOW_EXECUTION_COMPLETED", "WORKFLOW_EXECUTION_COMPLETED", "WORKFLOW_EXECUTION_COMPLETED"],
    activities: { evaluateMonitors: 3, deliverAlertNotification: 3 },
    activitiesFailed: 1,
  },
  playground: { executions: 2, workflowTypes: { playgroundCallWorkflow: 2 }, activities: { describePlaygroundTools: 1, playgroundInference: 1 } },
  // Unattended-era scenarios (79182c2 on): each run's path as its history shows it.
  "guardrail-blocked": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_FAILED"], updates: 0 },
  "guardrail-masked": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], updates: 0 },
  "guardrail-tool-inbox": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], updates: 1 },
  "guardrail-judge-rewrite": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"] },
  "follow-up-interrupt": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], updates: 2 },
  "spend-limit-ask": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], updates: 1 },
  "online-evaluation": { executions: 2, workflowTypes: { onlineEvaluatorWorkflow: 1, onlineEvaluationBackfillWorkflow: 1 } },
  "scheduled-run": {
    executions: 2,
    workflowTypes: { scheduledRunWorkflow: 1, agentRunWorkflow: 1 },
    rootEnds: ["WORKFLOW_EXECUTION_COMPLETED", "WORKFLOW_EXECUTION_COMPLETED"],
    activities: { fireScheduledRun: 1, awaitScheduledRun: 1, recordScheduledOutcome: 1 },
  },
};

/** Releases from f58bed5 on: re-routed to billing, and plan nodes (agents that only call the model) run inline, as activities of the plan's run. */
const INLINE_NODES: Partial<Record<ReleaseScenario, Partial<Shape>>> = {
  "router-falls-back-to-failed-child": { executions: 3, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], childrenStarted: 2, childrenFailed: 1, childrenCompleted: 1 },
  "plan-completed": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], childrenStarted: 0 },
  "plan-partially-failed": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], childrenStarted: 0 },
  "plan-cancelled": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_CANCELED"], childrenStarted: 0, cancelRequests: 1 },
  "plan-approved": { executions: 1, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], updates: 1, childrenStarted: 0 },
};

/** Where a later release took another path for the same scenario (it fixed the defect the scenario recorded). */
const EXPECTED_SINCE: Partial<Record<Release, Partial<Record<ReleaseScenario, Partial<Shape>>>>> = {
  // Re-routed to billing once general failed (routing-offers-remaining), instead of general twice.
  "6f9dc26": { "router-falls-back-to-failed-child": { executions: 3, rootEnds: ["WORKFLOW_EXECUTION_COMPLETED"], childrenStarted: 2, childrenFailed: 1, childrenCompleted: 1 } },
  // Also re-routed; and its plan nodes (agents that only call the model) ran inline, as activities of the plan's run (inline-plan-nodes).
  f58bed5: INLINE_NODES,
  "9e894a5": INLINE_NODES,
  "79182c2": INLINE_NODES,
};

/** Executions in start order: a continued run's executions replay in the order they ran. */
const startTime = (h: Recorded) => Number(h.history.events[0]?.eventTime?.seconds ?? 0) * 1e9 + (h.history.events[0]?.eventTime?.nanos ?? 0);

beforeAll(() => {
  // Each replay starts and stops a worker, which logs every state change at INFO, and the core logs the
  // failure the last test expects as a warning. Only a runtime already installed by another test file in
  // this process is tolerated; any other error of the install fails the file.
  installRuntime({ logger: new DefaultLogger("WARN"), telemetryOptions: { logging: { filter: { core: "ERROR", other: "ERROR" } } } });
});

describe.each(RELEASES)("runs recorded by release %s", (release) => {
  const fixture = fixtureOf(release);
  const recorded = decodeFixture(fixture);
  const ofScenario = (scenario: ReleaseScenario) => recorded.filter((h) => h.scenario === scenario);

  it("hold one run of every path of the engine, every execution, and nothing a database must resolve", () => {
    expect(fixture.release.startsWith(release), `recorded from ${fixture.release}`).toBe(true);
    expect(new Set(recorded.map((h) => h.scenario))).toEqual(new Set(SCENARIOS_OF[release]));
    for (const scenario of SCENARIOS_OF[release]) {
      const histories = [...ofScenario(scenario)].sort((a, b) => startTime(a) - startTime(b));
      expect(shapeOf(histories), scenario).toMatchObject(EXPECTED_SINCE[release]?.[scenario] ?? EXPECTED[scenario]);
    }
    expect(recorded.filter((h) => h.bytes.includes(CLAIM_CHECK_ENCODING)).map((h) => h.workflowId), "payloads stored by reference").toEqual([]);
    expect(readFileSync(path.join(import.meta.dirname, "fixtures", `release-${release}.histories.json`)).length).toBeLessThan(MAX_FIXTURE_BYTES);
  });

  /**
   * Every execution of the release, replayed once by one replay worker (a worker per scenario loaded the bundle into a
   * new context each time), the first scenario's test to ask starting it; each scenario's test reads its own results.
   */
  let replayed: Promise<{ scenario: ReleaseScenario; failure: string | null }[]> | undefined;
  const replayRelease = async () => {
    const results: { scenario: ReleaseScenario; failure: string | null }[] = [];
    let i = 0;
    for await (const result of Worker.runReplayHistories({ workflowBundle: sharedWorkflowBundle() }, recorded.map(({ workflowId, history }) => ({ workflowId, history })))) {
      const failure = result.error ? `${result.workflowId} / ${result.runId}: ${result.error instanceof Error ? `${result.error.name}: ${result.error.message}` : String(result.error)}` : null;
      results.push({ scenario: (recorded[i++] as (typeof recorded)[number]).scenario, failure });
    }
    expect(results, "one replay result per recorded execution").toHaveLength(recorded.length);
    return results;
  };

  it.each(SCENARIOS_OF[release])("%s: every execution replays on today's workflow code", async (scenario) => {
    replayed ??= replayRelease();
    const ofThis = (await replayed).filter((r) => r.scenario === scenario);
    expect(ofThis, `executions of ${scenario} replayed`).toHaveLength(ofScenario(scenario).length);
    const failures = ofThis.flatMap((r) => (r.failure ? [r.failure] : []));
    expect(failures, `executions of ${scenario} that today's code cannot replay`).toEqual([]);
  });
});

// A known defect of the release, not of today's code: recorded like the fixture above but under load (ten
// more follow-up-after-close runs beside the sixteen scenarios, every run's summary queried every 100 ms),
// 7 of 30 such runs in three recordings wrote a first execution that d1ec196's own bundle cannot replay
// either, failing on the same event as below (and one open run stuck on it). Its background ledger writes were local activities (recordLedger, marker event 8),
// whose result a replay resolves at another point than the run met it, so the replay orders the workflow
// task of events 14–16 differently (search attributes before the run-timeout timer). Today's code keeps
// that writer for runs without the "ledger-writer-regular-activity" marker, so it inherits the failure: such
// a run cannot be queried once closed (a follow-up message to it fails) and, if still open at a deploy, is
// stuck on its first workflow task on the new worker (as it would be after a restart of the old one).
describe(`a run of release ${RELEASE} that the release itself cannot replay`, () => {
  it("fails on today's code with the release's own nondeterminism error, at event 17", async () => {
    const unreplayable = JSON.parse(readFileSync(path.join(import.meta.dirname, "fixtures", `release-${RELEASE}.unreplayable.histories.json`), "utf8")) as ReleaseFixture;
    const [{ workflowId, history }] = unreplayable.histories as [ReleaseFixture["histories"][number]];
    const decoded = temporal.api.history.v1.History.decode(Buffer.from(history, "base64"));
    await expect(Worker.runReplayHistory({ workflowBundle: sharedWorkflowBundle() }, decoded, workflowId)).rejects.toThrow(
      /UpsertWorkflowSearchAttributesMachine does not handle HistoryEvent\(id: 17, TimerStarted\)/,
    );
  });
});
