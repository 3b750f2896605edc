// The shape of a release's recorded histories: what scripts/record-release-histories.ts
// writes and worker/engine-tests/release-replay.int.test.ts replays.

/** The agent run's paths every release fixture holds one run of each (with its child runs). */
export const ENGINE_SCENARIOS = [
  "parallel-tools",
  "follow-up",
  "follow-up-after-close",
  "typed-repair",
  "router-reroute",
  "router-exhausted",
  "router-falls-back-to-failed-child",
  "handoff",
  "plan-completed",
  "plan-partially-failed",
  "plan-cancelled",
  "plan-approved",
  "tool-approval",
  "sub-agent-conversation",
  "budget-ask-granted",
  "continue-as-new",
] as const;

/**
 * Paths recorded from 9e894a5 on: taped runs (forks and experiment units, with a
 * handoff, conversations and plan nodes under the tape), plan nodes run inline
 * that needed a retry, and the workflows beside agent runs (experiments, the
 * monitor evaluator's tick, the playground's call). Fixtures recorded before
 * hold none of them: their releases lacked the tape, or nobody recorded them.
 */
export const TAPE_ERA_SCENARIOS = [
  "fork",
  "fork-in-conversation",
  "taped-handoff",
  "taped-plan",
  "inline-node-retry",
  "inline-node-worker-lost",
  "experiment",
  "experiment-cancelled",
  "monitors-tick",
  "playground",
] as const;

/**
 * Paths recorded from the release after stop 58 (79182c2's workflow code) on: guardrails, the follow-up
 * policy, spend limits in a running run, online evaluators and backfills, and schedules' firings (issues
 * 39 and 40). Releases before hold none of them.
 */
export const UNATTENDED_ERA_SCENARIOS = [
  "guardrail-blocked",
  "guardrail-masked",
  "guardrail-tool-inbox",
  "guardrail-judge-rewrite",
  "follow-up-interrupt",
  "spend-limit-ask",
  "online-evaluation",
  "scheduled-run",
] as const;

export const RELEASE_FIXTURE_SCENARIOS = [...ENGINE_SCENARIOS, ...TAPE_ERA_SCENARIOS, ...UNATTENDED_ERA_SCENARIOS] as const;

export type ReleaseScenario = (typeof RELEASE_FIXTURE_SCENARIOS)[number];
export type TapeEraScenario = (typeof TAPE_ERA_SCENARIOS)[number];
export type UnattendedEraScenario = (typeof UNATTENDED_ERA_SCENARIOS)[number];

export interface ReleaseFixture {
  /** The commit whose workflow code wrote the histories. */
  release: string;
  recordedAt: string;
  /** One entry per workflow execution; `history` is temporal.api.history.v1.History, encoded, in base64. */
  histories: { scenario: ReleaseScenario; workflowId: string; history: string }[];
}
