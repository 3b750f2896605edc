// The engine's client: what server actions, route handlers and scripts call to
// start runs and interact with them. Built from a Temporal client and the
// database; no Next-specific code, so scripts and tests use it directly.
// Each concern is its own module; this file only puts them together.
import { createApprovalDecisions } from "./approval-decisions";
import { createEngineContext, type EngineDeps } from "./engine-context";
import { createRunControl } from "./run-control";
import { createRunReads } from "./run-reads";
import { createRunStarter } from "./start-run";

export type { DecisionInput } from "./approval-decisions";
export type { EngineDeps } from "./engine-context";
export { dedupePending, type RunListItem } from "./run-reads";
export type { StartRunInput } from "./start-run";
export { isRetryableUpdateError } from "./temporal-errors";

/** The engine client: starting runs, reading them, messaging and cancelling them, deciding their approvals. */
export function createEngine(deps: EngineDeps) {
  const context = createEngineContext(deps);
  return {
    ...createRunStarter(context),
    ...createRunReads(context),
    ...createRunControl(context),
    ...createApprovalDecisions(context),
  };
}

export type Engine = ReturnType<typeof createEngine>;
