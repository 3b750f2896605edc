// Browser-safe helpers that tell waiting calls apart and pick "mine".
import type { ForkIdentity, InboxItem, RunIdentity } from "./schemas";
import { graphVersionLabel } from "../runs/version-label";

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

/** "treasury v3", "unsaved variant of treasury v3", "treasury", or "inline graph" (the runs pages' wording). */
export function graphLabel(identity: RunIdentity | undefined): string {
  return graphVersionLabel(identity);
}

/** "fork of 6e7f8a9b at tool calculator (s4)": what a fork's call was forked from, by the origin run's short id. */
export function forkLabel(fork: ForkIdentity): string {
  const at = fork.spanId ? ` at ${fork.step ? `${fork.step} (${fork.spanId})` : `step ${fork.spanId}`}` : "";
  return `fork of ${shortRunId(fork.originRunId)}${at}`;
}

/** "tool calculator result, by builder@zap.local at <time>" per written step ("" when nothing was edited). */
export function forkEditsLabel(fork: ForkIdentity): string {
  return fork.edits
    .map((edit) => `${edit.step} ${edit.kind === "tool_result" ? "result" : "output"}${edit.inherited ? " (in an earlier fork)" : ""}, by ${edit.by} at ${edit.at}`)
    .join("; ");
}

/** Mine: a run tree I started, or one where I already decided an approval. */
export function isMine(item: InboxItem, email: string): boolean {
  return item.identity?.startedBy?.email === email || (item.decidedBefore ?? []).includes(email);
}

/** One line that names a call's run for confirmations and menus: run, task, starter. */
export function describeRun(item: InboxItem): string {
  const task = item.identity?.task ? ` “${item.identity.task}”` : "";
  // A fork repeats its origin's task: the confirmation says which of the two this is.
  const fork = item.identity?.fork ? ` (${forkLabel(item.identity.fork)}${item.identity.fork.edits.length ? ", edited" : ""})` : "";
  return `run ${shortRunId(item.runId)}${fork}${task} · started by ${starterLabel(item.identity)}`;
}
