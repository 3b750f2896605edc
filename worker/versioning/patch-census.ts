// Which engine patches the open executions ran with, and on which build: the
// evidence a patch's retirement needs (docs/deploying.md "Retiring a patch").
// A patch's old branch may go only once no open execution lacks its marker;
// its marker check may go once none holds it. Every engine patch is asked at
// an execution's start (engine-patches.ts, run-ledger.ts start()), so the
// markers of an execution's first workflow task say which path it is on for
// good; the one exception, workspace-approval-gate of executions from before
// workspace-gate-at-start, is asked at the first gated call.
import type { Client, WorkflowExecutionInfo } from "@temporalio/client";
import type { temporal } from "@temporalio/proto";

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** The engine's patches, oldest first, with the executions that ask them (the rest never record the marker). */
export const ENGINE_PATCHES: readonly { id: string; askedBy: string }[] = [
  { id: "ledger-carried-by-model-calls", askedBy: "every run" },
  { id: "ledger-writer-regular-activity", askedBy: "every run" },
  { id: "plan-scheduler", askedBy: "every run" },
  { id: "routing-offers-remaining", askedBy: "every run" },
  { id: "zero-window-closes", askedBy: "runs stamped behaviour 0" },
  { id: "sub-agent-budget-shares", askedBy: "every run" },
  { id: "inline-plan-nodes", askedBy: "every run" },
  { id: "run-start-checked", askedBy: "every run" },
  { id: "turn-deadline-kept", askedBy: "every run" },
  { id: "tape-replay", askedBy: "taped runs" },
  { id: "tape-start-check-in-history", askedBy: "taped runs (deprecated: always on)" },
  { id: "tape-calls-in-history", askedBy: "taped runs (deprecated: always on)" },
  { id: "steps-in-history", askedBy: "every run" },
  { id: "workspace-gate-at-start", askedBy: "runs without a gate" },
  { id: "workspace-approval-gate", askedBy: "runs without a gate, before workspace-gate-at-start, at the first gated call" },
  { id: "follow-up-policy", askedBy: "every run" },
  { id: "spend-limits-in-run", askedBy: "every run" },
  { id: "spend-limits-every-call", askedBy: "every run" },
  { id: "guardrails", askedBy: "runs whose graph has a guardrail" },
];

/** The marker core writes for `patched()` / `deprecatePatch()`. */
const PATCH_MARKER = "core_patch";

/** The patch ids recorded in a history, in order (a marker's details hold `{"id": …, "deprecated": …}`). */
export function patchMarkers(events: readonly HistoryEvent[]): string[] {
  const ids: string[] = [];
  for (const event of events) {
    const marker = event.markerRecordedEventAttributes;
    if (!marker || marker.markerName !== PATCH_MARKER) continue;
    for (const payloads of Object.values(marker.details ?? {})) {
      const data = payloads.payloads?.[0]?.data;
      if (!data) continue;
      try {
        const parsed: unknown = JSON.parse(Buffer.from(data).toString("utf8"));
        if (parsed && typeof parsed === "object" && "id" in parsed && typeof parsed.id === "string") ids.push(parsed.id);
      } catch {
        // Not a patch's details: nothing to count.
      }
    }
  }
  return ids;
}

/** The build that completed the execution's latest workflow task: a deployment version, a build id, or "unversioned". */
export function buildOf(events: readonly HistoryEvent[]): string {
  for (let i = events.length - 1; i >= 0; i--) {
    const completed = events[i]?.workflowTaskCompletedEventAttributes;
    if (!completed) continue;
    const version = completed.deploymentVersion;
    if (version?.buildId) return version.deploymentName ? `${version.deploymentName}:${version.buildId}` : version.buildId;
    if (completed.deployment?.buildId) return completed.deployment.buildId;
    if (completed.workerVersion?.buildId) return completed.workerVersion.buildId;
    return "unversioned";
  }
  return "no task completed yet";
}

export interface OpenExecution {
  workflowId: string;
  runId: string;
  type: string;
  build: string;
  patches: string[];
}

export interface PatchCensus {
  executions: OpenExecution[];
  /** Per engine patch: open executions whose history holds its marker, and those that lack it. */
  perPatch: { id: string; askedBy: string; holding: number; lacking: number }[];
  /** Open executions per build. */
  perBuild: Map<string, number>;
}

/** Tallies executions already read (pure: the command and the tests share it). */
export function tally(executions: OpenExecution[]): PatchCensus {
  const perBuild = new Map<string, number>();
  for (const e of executions) perBuild.set(e.build, (perBuild.get(e.build) ?? 0) + 1);
  const perPatch = ENGINE_PATCHES.map(({ id, askedBy }) => {
    const holding = executions.filter((e) => e.patches.includes(id)).length;
    return { id, askedBy, holding, lacking: executions.length - holding };
  });
  return { executions, perPatch, perBuild };
}

/** Reads every open execution of the namespace (or those `query` selects) and its patch markers. */
export async function takePatchCensus(client: Client, query = "ExecutionStatus = 'Running'"): Promise<PatchCensus> {
  const executions: OpenExecution[] = [];
  for await (const info of client.workflow.list({ query }) as AsyncIterable<WorkflowExecutionInfo>) {
    const history = await client.workflow.getHandle(info.workflowId, info.runId).fetchHistory();
    const events = history.events ?? [];
    executions.push({ workflowId: info.workflowId, runId: info.runId, type: info.type, build: buildOf(events), patches: patchMarkers(events) });
  }
  return tally(executions);
}

/** The census as the command prints it. */
export function formatCensus(census: PatchCensus): string {
  const lines = [`${census.executions.length} open execution${census.executions.length === 1 ? "" : "s"}`];
  for (const [build, count] of census.perBuild) lines.push(`  build ${build}: ${count}`);
  lines.push("patch                              holding  lacking  asked by");
  for (const p of census.perPatch) lines.push(`  ${p.id.padEnd(33)}${String(p.holding).padStart(7)}${String(p.lacking).padStart(9)}  ${p.askedBy}`);
  return lines.join("\n");
}
