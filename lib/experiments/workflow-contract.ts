// What the web server and the worker share about the experiment workflow: its
// type and id, its input, and the activities' argument shapes. zod-free, so
// workflow code may import it (scripts/architecture.test.ts).

export const EXPERIMENT_WORKFLOW_TYPE = "experimentWorkflow";

/** One workflow per experiment: starting it twice is refused by Temporal, cancelling it needs only the experiment id. */
export function experimentWorkflowId(experimentId: string): string {
  return `experiment-${experimentId}`;
}

/**
 * The item run of one unit: a stable run (and workflow) id, so a unit retried
 * after a crash finds the run it started instead of starting a second one. Run
 * ids start with the entry agent's name (the engine's rule).
 */
export function experimentRunId(entryAgent: string, experimentId: string, targetIndex: number, itemId: string): string {
  return `${entryAgent}-exp-${experimentId}-${targetIndex}-${itemId}`;
}

/** Ids and counters only: the workflow never carries item payloads. */
export interface ExperimentWorkflowInput {
  experimentId: string;
  /** Units numbered 0..total-1 (one result row each). */
  total: number;
  concurrency: number;
  /** The first unit this execution starts (continue-as-new carries it on). */
  next: number;
  /** Units per workflow execution before it continues as new (default 400; tests use fewer). */
  unitsPerExecution?: number;
}

export interface ExperimentUnitRef {
  experimentId: string;
  seq: number;
}

export interface ExperimentWorkflowResult {
  status: "completed" | "cancelled";
  /** Units this execution saw finish. */
  finished: number;
}
