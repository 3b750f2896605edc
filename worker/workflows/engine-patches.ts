// The engine's behaviour changes, decided once per workflow execution at its
// start, where every execution's history has the same first commands. A
// patch asked mid-run records its marker wherever the run happens to be, and
// a replay that resolves a local activity in another workflow task than the
// one that recorded it (see run-ledger.ts) may meet the marker elsewhere; at
// the start, before any activity, that cannot happen. Runs recorded before a
// patch have no marker at their start and keep the old behaviour for good;
// a new execution (a new run, or continue-as-new) gets every patch.
import { deprecatePatch, patched } from "@temporalio/workflow";
import type { AgentRunInput } from "../../lib/contract/workflow";

/** A taped run's tape and its place in the run tree (lib/tapes/paths.ts). */
export interface RunTape {
  tapeId: string;
  path: string;
}

export interface EnginePatches {
  /** Plans run on plan-scheduler.ts (else the frozen legacy executor). */
  planScheduler: boolean;
  /** After a routed child fails, the router is offered only the children left. */
  routingOffersRemaining: boolean;
  /**
   * A zero follow-up or idle window closes the run without a zero-timeout
   * condition (whose SDK-internal patch marker a replay could meet in another
   * workflow task). Runs whose client stamped `behaviour` ≥ 1 decided it so.
   */
  zeroWindowCloses: boolean;
  /** Each sub-agent conversation turn draws a share of the tokens the run has left (else the whole graph budget). */
  subAgentShares: boolean;
  /**
   * Plan nodes that need no child workflow (an agent without tools, sub-agents
   * or handoffs) run as one activity of the plan's run, and every node reads its
   * dependencies' results by reference (claim check) rather than quoted into
   * its input.
   */
  inlinePlanNodes: boolean;
  /** A root run checks the web server's signature of its input before it does anything (run-start-check.ts). */
  runStartChecked: boolean;
  /**
   * A turn's run-timeout timer is left to fire rather than cancelled when the turn ends (agent-loop.ts respond).
   * A turn answered by a local activity could start and cancel it in one activation on replay but not when it
   * ran (a query let the activity's result land in a later workflow task), and the SDK drops a timer started
   * and cancelled in one activation: "UpsertWorkflowSearchAttributesMachine does not handle TimerStarted".
   */
  turnDeadlineKept: boolean;
  /**
   * The run's tape (a fork, an experiment: lib/tapes), or null. Model and tool
   * activities then carry it, and an approval-gated call asks the tape (an
   * activity) before an approval opens. Only runs started with a tape ask the
   * patch, so every other run issues exactly the commands it did before.
   */
  tape?: RunTape | null;
  /**
   * A taped root run checks its signed start with a regular activity rather than a local one
   * (run-start-check.ts). The local activity's result could be recorded in the first workflow task
   * while the run went on from it only in the next, beside a cancel that arrived meanwhile (a query
   * or a slow task in between, as an experiment's cancel right after the start does under load); a
   * replay resolved it in the first task and scheduled the run's next activity where the history
   * holds the cancelled run's writes: "Activity machine does not handle this event … UpsertWorkflowSearchAttributes",
   * every later task failed and the run stood still (worker/engine-tests/tape-cancel.int.test.ts).
   * Asked only by runs with a tape, after tape-replay; taped runs started before it keep the local activity.
   */
  tapeStartCheckInHistory?: boolean;
  /**
   * A taped run's model calls and side-effect-free tools are regular activities, never local ones. The same
   * race as tapeStartCheckInHistory, later in the run: a replayed model call's local-activity result was
   * recorded in the workflow task where a query arrived, but the run went on from it only in the next, beside
   * the cancel that came meanwhile; a replay resolved it a task earlier, scheduled the next call there, and
   * the cancel's writes no longer matched ("No command scheduled for event … UpsertWorkflowSearchAttributes",
   * worker/engine-tests/tape-cancel.int.test.ts under load). A regular activity's result is an event of its
   * own, at one place in the history. Asked only by taped runs, after tape-start-check-in-history.
   */
  tapeCallsInHistory?: boolean;
  /**
   * Every step whose result the run acts on is a regular activity: the start check, model calls (any model),
   * built-in tools and a handoff's context. A local activity's result is a marker written with the workflow
   * task that completes after it resolves; when a query, signal or cancel closed a task while it ran, its
   * result landed in a later task than a replay resolves it in, and the replay issued the next command
   * elsewhere (TMPRL1100: "No command scheduled for event … UpsertWorkflowSearchAttributes", "Cancel external
   * WF machine does not handle this event"). A regular activity's result is an event of its own, at one place
   * in the history, whatever arrives around it; so the class is closed for every kind of run, not one variant
   * at a time (worker/engine-tests/replay-soak.int.test.ts proves it under queries, cancels and kills).
   * Plan and routing fixes of the same release (issue 35 §3) are decided by this patch too.
   * Old executions keep their local activities until they end (continue-as-new asks anew).
   */
  stepsInHistory: boolean;
  /**
   * A run started without a workspace gate (only runs of a release before the gate) decided at its start that
   * the strict fallback policy applies, rather than asking `workspace-approval-gate` at its first gated call.
   * Undefined for runs with a gate (they never ask).
   */
  workspaceGateAtStart?: boolean;
  /**
   * A user message follows the graph's follow-up policy (limits.followUps, follow-ups.ts): `reject` refuses it
   * while a turn works, `interrupt` cancels the turn's work. Without it, every message is queued, as before.
   */
  followUpPolicy: boolean;
  /**
   * A model call first checks the spend limits of the run's scope (its root run's graph, starter and API key,
   * and the workspace) in the same activity; at a reached limit no model is called and the run stops with
   * spend_limit_reached or pauses into the inbox, as the limit says (spend-limit.ts). Without it, a working
   * run goes on to its end whatever it spends, as before.
   */
  spendLimitsInRun: boolean;
  /**
   * The model calls spendLimitsInRun left unchecked check too: a taped run's live calls (a fork past its fork
   * point, an experiment unit's calls the tape does not answer; a recorded step costs nothing and is never
   * checked) and an inline plan node's calls (plan-node.ts; its run ends failed with spend_limit_reached and the
   * plan's run stops or asks, then gives the node another attempt: plan-scheduler.ts). Without it, those calls go
   * on whatever the run tree spends, as before.
   */
  spendLimitsEveryCall: boolean;
  /**
   * The agents' guardrails run (worker/workflows/guardrails.ts): input, output and tool checks with their
   * actions. Asked only by runs whose graph holds a guardrail, after every other patch, so a run without any
   * issues exactly the commands it did before (no marker, no check). Executions started before it never
   * check, whatever their graph says.
   */
  guardrails: boolean;
}

/** Whether any agent of the graph has a guardrail (an older graph's agents have no such field). */
export function graphHasGuardrails(graph: AgentRunInput["graph"]): boolean {
  return graph.agents.some((agent) => ((agent as { guardrails?: readonly unknown[] }).guardrails?.length ?? 0) > 0);
}

export function decidePatches(input: AgentRunInput): EnginePatches {
  const patches: EnginePatches = {
    planScheduler: patched("plan-scheduler"),
    routingOffersRemaining: patched("routing-offers-remaining"),
    // Short-circuit: a run stamped by an older web server must not record a marker its history lacks.
    zeroWindowCloses: (input.behaviour ?? 0) >= 1 || patched("zero-window-closes"),
    subAgentShares: patched("sub-agent-budget-shares"),
    inlinePlanNodes: patched("inline-plan-nodes"),
    runStartChecked: patched("run-start-checked"),
    turnDeadlineKept: patched("turn-deadline-kept"),
    tape: input.tape && patched("tape-replay") ? { tapeId: input.tape.tapeId, path: input.tape.path ?? "" } : null,
    // Asked below, after the tape's patches, so every earlier marker keeps its place.
    stepsInHistory: false,
    followUpPolicy: false,
    spendLimitsInRun: false,
    spendLimitsEveryCall: false,
    guardrails: false,
  };
  // Asked only by a taped run, after tape-replay: every other run asks exactly the patches it did before.
  // Retired (docs/deploying.md "Retiring a patch"): both landed in the same release as tape-replay (issue 27),
  // so no release ever ran a taped execution without them; the marker stays so that histories holding it
  // replay, and the old branch is gone.
  if (patches.tape) {
    deprecatePatch("tape-start-check-in-history");
    deprecatePatch("tape-calls-in-history");
    patches.tapeStartCheckInHistory = true;
    patches.tapeCallsInHistory = true;
  }
  patches.stepsInHistory = patched("steps-in-history");
  if (!input.gate) patches.workspaceGateAtStart = patched("workspace-gate-at-start");
  patches.followUpPolicy = patched("follow-up-policy");
  patches.spendLimitsInRun = patched("spend-limits-in-run");
  patches.spendLimitsEveryCall = patched("spend-limits-every-call");
  // Only a graph with guardrails asks: every other run's history keeps exactly its earlier shape.
  patches.guardrails = graphHasGuardrails(input.graph) && patched("guardrails");
  return patches;
}
