// Temporal's side of a run list: the execution status of runs the run ledger
// listed. Visibility is eventually consistent and may be slow, so it is asked
// only about the runs on the page, with a deadline.
import type { Client } from "@temporalio/client";

export interface Visibility {
  /** Temporal's execution status (RUNNING, COMPLETED, …). */
  status: string;
  /** When the workflow execution closed (a completed run stays open for follow-ups a while). */
  closedAt: string | null;
}

/**
 * What Temporal's visibility says about each of `runIds` (runs it does not list
 * are missing from the map); fails when visibility does not answer within
 * `timeoutMs`.
 */
export async function readVisibility(temporal: Client, runIds: readonly string[], timeoutMs = 3_000): Promise<Map<string, Visibility>> {
  const found = new Map<string, Visibility>();
  if (runIds.length === 0) return found;
  // Run ids are [A-Za-z0-9_.-] (runIdSchema); quotes are dropped all the same, as the query is a string.
  const ids = runIds.map((id) => `'${id.replace(/'/g, "")}'`).join(", ");
  const read = (async () => {
    // Newest execution first: a run continued as new is listed once per execution.
    for await (const wf of temporal.workflow.list({ query: `WorkflowId IN (${ids})`, pageSize: 500 })) {
      if (!found.has(wf.workflowId)) found.set(wf.workflowId, { status: wf.status.name, closedAt: wf.closeTime?.toISOString() ?? null });
    }
  })();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Temporal's visibility did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([read, deadline]);
  } finally {
    clearTimeout(timer);
  }
  return found;
}
