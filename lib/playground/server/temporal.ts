import "server-only";
// The web side of a playground call: it starts playgroundCallWorkflow on the
// worker's task queue and waits for its result, bounded by the workflow's own
// execution timeout; the worker holds the providers and their keys.
import { randomUUID } from "node:crypto";
import { WorkflowFailedError, type Client } from "@temporalio/client";
import { AppError } from "../../errors";
import { PLAYGROUND_WORKFLOW_TYPE, type PlaygroundWorkflowInput, type PlaygroundWorkflowOutput } from "../contract";

export interface PlaygroundDeps {
  temporal: Client;
  taskQueue: string;
}

/** No worker answered in time: the call is not lost work, but the caller must hear it plainly. */
export class PlaygroundTimeout extends AppError {
  constructor(what: string, seconds: number) {
    super("timeout", 504, `${what} did not finish within ${seconds} s; check that a worker is running and the model answers, then try again`);
  }
}

/** Runs the workflow to its result, or throws PlaygroundTimeout when it ran out of `timeoutMs`. */
export async function executePlayground<T extends PlaygroundWorkflowOutput>(deps: PlaygroundDeps, input: PlaygroundWorkflowInput, timeoutMs: number, what: string): Promise<T> {
  try {
    return (await deps.temporal.workflow.execute(PLAYGROUND_WORKFLOW_TYPE, {
      taskQueue: deps.taskQueue,
      workflowId: `playground-${input.kind}-${randomUUID()}`,
      args: [input],
      workflowExecutionTimeout: `${Math.ceil(timeoutMs / 1000)} seconds`,
    })) as T;
  } catch (error) {
    // Timed out (no worker took it, or the model took too long); other failures stay in the log.
    if (!(error instanceof WorkflowFailedError)) throw error;
    console.error(`playground ${input.kind} failed:`, error);
    throw new PlaygroundTimeout(what, Math.ceil(timeoutMs / 1000));
  }
}
