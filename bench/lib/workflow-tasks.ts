// The longest workflow task of some runs, read from their histories: the time
// from a workflow task's start to its completion (or failure, or timeout) is
// how long the worker held the workflow's thread for it. Past 10 s a task times
// out and is retried, so long runs stall; the SDK warns (TMPRL1104) past 5 s.
import type { Client } from "@temporalio/client";
import proto, { type temporal } from "@temporalio/proto";

// The package is CommonJS: under Node's ESM loader (tsx) only its default export is there.
const { EventType } = proto.temporal.api.enums.v1;

const millisOf = (time: temporal.api.history.v1.IHistoryEvent["eventTime"]) => Number(time?.seconds ?? 0) * 1000 + Math.floor((time?.nanos ?? 0) / 1e6);

export interface LongestTask {
  ms: number;
  workflowId: string;
  /** Workflow tasks looked at. */
  tasks: number;
}

/** The longest workflow task over every execution of `workflowIds` (their child runs are not followed). */
export async function longestWorkflowTask(client: Client, workflowIds: readonly string[]): Promise<LongestTask> {
  const longest: LongestTask = { ms: 0, workflowId: "", tasks: 0 };
  for (const workflowId of workflowIds) {
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    let startedAt: number | null = null;
    for (const event of history.events ?? []) {
      if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED) startedAt = millisOf(event.eventTime);
      const ended = event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED || event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED || event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT;
      if (!ended || startedAt === null) continue;
      const ms = millisOf(event.eventTime) - startedAt;
      longest.tasks++;
      if (ms > longest.ms) Object.assign(longest, { ms, workflowId });
      startedAt = null;
    }
  }
  return longest;
}

/** What one run's history holds: workflow tasks, and activities by type (where the round trips through Temporal go). */
export async function historyMix(client: Client, workflowId: string): Promise<string> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const activities = new Map<string, number>();
  let tasks = 0;
  for (const event of history.events ?? []) {
    if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) tasks++;
    const type = event.activityTaskScheduledEventAttributes?.activityType?.name;
    if (type) activities.set(type, (activities.get(type) ?? 0) + 1);
  }
  const listed = [...activities].map(([type, count]) => `${count} ${type}`).join(", ");
  return `${tasks} workflow tasks; activities: ${listed || "none"}; ${history.events?.length ?? 0} events`;
}
