// Browser-safe helpers that tell waiting calls apart and pick "mine".
import type { InboxItem, RunIdentity } from "./schemas";

const TASK_LINE_MAX = 160;

/** The first non-empty line of a task, cut at 160 characters with an ellipsis. */
export function firstLine(task: string): string {
  const line = task.split("\n").find((l) => l.trim().length > 0)?.trim() ?? "";
  return line.length > TASK_LINE_MAX ? `${line.slice(0, TASK_LINE_MAX - 1)}…` : line;
}

/** The run id as people read it: its last 8 characters (ids share a prefix). */
export function shortRunId(runId: string): string {
  return runId.length > 8 ? runId.slice(-8) : runId;
}

/** "Bo Builder (builder@zap.local)", or the email alone, or "unknown". */
export function starterLabel(identity: RunIdentity | undefined): string {
  const starter = identity?.startedBy;
  if (!starter) return "unknown";
  return starter.name ? `${starter.name} (${starter.email})` : starter.email;
}

/** "treasury v3", "treasury", or "inline graph". */
export function graphLabel(identity: RunIdentity | undefined): string {
  if (!identity?.graphName) return "inline graph";
  return identity.version !== null ? `${identity.graphName} v${identity.version}` : identity.graphName;
}

/** Mine: a run tree I started, or one where I already decided an approval. */
export function isMine(item: InboxItem, email: string): boolean {
  return item.identity?.startedBy?.email === email || (item.decidedBefore ?? []).includes(email);
}

/** One line that names a call's run for confirmations and menus: run, task, starter. */
export function describeRun(item: InboxItem): string {
  const task = item.identity?.task ? ` “${item.identity.task}”` : "";
  return `run ${shortRunId(item.runId)}${task} · started by ${starterLabel(item.identity)}`;
}
