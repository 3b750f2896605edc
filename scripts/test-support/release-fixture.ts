// The shape of a release's recorded histories: what scripts/record-release-histories.ts
// writes and worker/engine-tests/release-replay.int.test.ts replays.

/** The engine's paths a release fixture holds one run of each (with its child runs). */
export const RELEASE_FIXTURE_SCENARIOS = [
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

export type ReleaseScenario = (typeof RELEASE_FIXTURE_SCENARIOS)[number];

export interface ReleaseFixture {
  /** The commit whose workflow code wrote the histories. */
  release: string;
  recordedAt: string;
  /** One entry per workflow execution; `history` is temporal.api.history.v1.History, encoded, in base64. */
  histories: { scenario: ReleaseScenario; workflowId: string; history: string }[];
}
