"use client";
import { useState } from "react";
import Link from "@/components/ui/link";
import { Button } from "@/components/ui/button";
import { StatusBadge } from "@/components/runs/status-badge";
import { UsageText, formatDuration, tokenCount } from "@/components/runs/usage";
import { formatCount } from "@/lib/format/figures";
import { followUpWindowText, runDurationMs, runTimes } from "@/lib/runs/run-time";
import { RunDialog } from "@/components/runs/run-dialog";
import { CompareWith } from "@/components/diff/compare-with";
import { JsonTree } from "@/components/runs/json-tree";
import { FailureDetails } from "@/components/runs/failure-details";
import { PlanOutcomeSummary } from "@/components/runs/plan-outcome";
import { cancelRunAction } from "@/lib/actions/cancel-run";
import { isTerminal, type RunHeaderData, type UsageCost } from "@/lib/runs/schemas";
import { useNow } from "@/components/runs/use-now";
import { FollowUpComposer, type Notice } from "./follow-up-composer";
import { MessageImages } from "@/components/attachments/message-images";
import type { ImageRef } from "@/lib/attachments/schemas";
import { FeedbackWidget } from "@/components/feedback/feedback-widget";
import { ForkLinks } from "@/components/forks/fork-links";
import { graphVersionLabel } from "@/lib/runs/version-label";
import { routedToText } from "@/lib/runs/routing-label";
import { DateTime } from "@/components/ui/date-time";

/** A usage with the tokens of the answer being written added to its output (the ledger has them once the call is stored). */
function withLive(usage: UsageCost, liveTokens: number): UsageCost {
  return liveTokens ? { ...usage, tokens: { ...usage.tokens, outputTokens: usage.tokens.outputTokens + liveTokens } } : usage;
}

export function RunHeader({ header, liveTokens = 0, taskImages, canLaunch, onChanged }: {
  header: RunHeaderData;
  /** Estimated tokens of the run's model call being written, not yet in the ledger (0 when none). */
  liveTokens?: number;
  taskImages: readonly ImageRef[];
  canLaunch: boolean;
  onChanged: () => void;
}) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const now = useNow();
  // Start → last answer (or now while it works): the trace's root bar reads the same times.
  const duration = runDurationMs(runTimes(header), now);
  const terminal = isTerminal(header.status);
  // While an answer is written its tokens count here already (estimated), so the count moves with the text;
  // once the call is stored the ledger's count replaces the estimate.
  const self = withLive(header.self, liveTokens);
  const total = withLive(header.total, liveTokens);

  async function cancel() {
    setBusy(true);
    const result = await cancelRunAction({ runId: header.runId });
    setBusy(false);
    setNotice(result.ok ? { tone: "ok", text: "Cancel requested." } : { tone: "error", text: result.error.message });
    onChanged();
  }

  return (
    <header className="mb-6 space-y-3">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="text-xs text-zinc-500">
            <Link href="/runs" className="hover:underline">
              Runs
            </Link>
            {header.parentRunId ? (
              <>
                {" / "}
                <Link href={`/runs/${encodeURIComponent(header.parentRunId)}`} className="hover:underline">
                  parent run
                </Link>
              </>
            ) : null}
          </p>
          {/* The run is its graph's: the graph names it, the agent it entered (or, for a sub-run, ran) stands beside. */}
          <h1 className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-2xl font-semibold tracking-tight text-zinc-900">
            <span data-testid="run-title">{header.graphName ?? header.agentName}</span>
            {header.graphName ? (
              <span data-testid="run-agent" className="text-sm font-normal text-zinc-500">
                {header.parentRunId ? "agent" : "entry agent"} {header.agentName}
              </span>
            ) : null}
            <StatusBadge status={header.status} />
          </h1>
          <p className="mt-1 break-all font-mono text-xs text-zinc-500">{header.runId}</p>
          {header.schedule ? (
            <p className="mt-1 text-xs text-zinc-600" data-testid="run-schedule">
              Started by the schedule{" "}
              <Link href={`/schedules#${encodeURIComponent(header.schedule.id)}`} className="text-indigo-700 hover:underline">
                {header.schedule.name ?? `${header.schedule.id} (deleted)`}
              </Link>
            </p>
          ) : null}
          {header.webhook ? (
            <p className="mt-1 text-xs text-zinc-600" data-testid="run-webhook">
              Started by a delivery to the webhook{" "}
              <Link href={`/webhooks#${encodeURIComponent(header.webhook.id)}`} className="text-indigo-700 hover:underline">
                {header.webhook.name ?? `${header.webhook.id} (deleted)`}
              </Link>
            </p>
          ) : null}
          {header.label ? (
            <p className="mt-1 text-xs text-zinc-600" data-testid="run-label">
              Started by the label{" "}
              <Link href={`/runs?graph=${encodeURIComponent(header.graphName ?? "")}&label=${encodeURIComponent(header.label.name)}`} className="text-indigo-700 hover:underline">
                {header.label.name}
              </Link>
              {header.version !== null ? ` → v${header.version}` : ""}
              {header.label.variant === "split" ? " (its traffic split's version)" : ""}
            </p>
          ) : null}
          <ForkLinks runId={header.runId} />
        </div>
        <div className="flex gap-2">
          <CompareWith runId={header.runId} />
          {canLaunch ? (
            <>
            {header.graphName && !header.parentRunId ? (
              <RunDialog agent={header.graphName} label="Re-run" variant="secondary" initial={{ version: header.version ?? undefined, task: header.task, context: header.context, images: taskImages }} />
            ) : null}
            {!terminal ? (
              <Button variant="danger" disabled={busy} onClick={cancel}>
                Cancel run
              </Button>
            ) : null}
            </>
          ) : null}
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-2 rounded-lg border border-zinc-200 bg-white p-4 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-zinc-500">Graph and version</dt>
          <dd>
            {header.graphName ? (
              // An unsaved variant links to the version it derives from, and says it is not that version.
              <Link
                data-testid="run-version"
                className="text-indigo-700 hover:underline"
                href={`/agents/${encodeURIComponent(header.graphName)}${(header.variantOf ?? header.version) ? `?version=${header.variantOf ?? header.version}` : ""}`}
              >
                {graphVersionLabel(header)}
              </Link>
            ) : (
              <span data-testid="run-version">{graphVersionLabel(header)}</span>
            )}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Duration</dt>
          <dd data-testid="run-duration">{formatDuration(duration)}</dd>
          {header.followUpUntil && header.status === "completed" ? (
            // The window after the answer is not run time: it is said as a window.
            <dd data-testid="follow-up-window" className="text-xs text-zinc-500" suppressHydrationWarning>
              {followUpWindowText(header.followUpUntil)}
            </dd>
          ) : null}
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Iterations</dt>
          <dd>{header.iteration}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Started by</dt>
          <dd>{header.startedBy ?? "—"}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Self</dt>
          <dd data-testid="usage-self" data-tokens={tokenCount(self)}>
            <UsageText usage={self} />
            {liveTokens ? <LiveTokens tokens={liveTokens} /> : null}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Including sub-runs</dt>
          <dd data-testid="usage-total" data-tokens={tokenCount(total)}>
            <UsageText usage={total} />
            {liveTokens ? <LiveTokens tokens={liveTokens} /> : null}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Pending approvals</dt>
          <dd>{header.pendingApprovals}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Started</dt>
          <dd>
            <DateTime value={header.startedAt} testId="run-started" />
          </dd>
        </div>
        {routedToText(header) ? (
          <div>
            <dt className="text-xs text-zinc-500">Routed to</dt>
            <dd data-testid="routed-to">{routedToText(header)}</dd>
          </div>
        ) : null}
        {header.planOutcome ? (
          <div>
            <dt className="text-xs text-zinc-500">Plan</dt>
            <dd>
              <PlanOutcomeSummary outcome={header.planOutcome} counts={header.planCounts} />
            </dd>
          </div>
        ) : null}
      </dl>
      <div data-testid="run-task" className="rounded-lg border border-zinc-200 bg-white p-4 text-sm">
        <p className="text-xs text-zinc-500">Task</p>
        <p className="whitespace-pre-wrap">{header.task}</p>
        <MessageImages images={taskImages} />
        {header.typedOutput ? (
          // The text output of a typed answer is the same data as pretty JSON: the tree shows it, and its raw view.
          <div className="mt-2">
            <JsonTree value={header.typedOutput.data} label="Typed answer" />
          </div>
        ) : header.output !== null ? (
          <>
            <p className="mt-2 text-xs text-zinc-500">Output</p>
            <p data-testid="run-output" className="whitespace-pre-wrap">
              {header.output}
            </p>
          </>
        ) : null}
        {header.error ? (
          <>
            <p role="alert" className="mt-2 text-red-700">
              {header.error.reason}: {header.error.message}
            </p>
            <FailureDetails details={header.error.details} />
          </>
        ) : null}
      </div>
      <FeedbackWidget runId={header.runId} title="Feedback on this run" />
      {canLaunch && !header.parentRunId && header.status !== "failed" && header.status !== "cancelled" ? (
        <FollowUpComposer runId={header.runId} lastEventSeq={header.lastEventSeq} onNotice={setNotice} onRefresh={onChanged} />
      ) : null}
      {notice ? (
        <p role={notice.tone === "error" ? "alert" : "status"} className={notice.tone === "error" ? "text-sm text-red-700" : "text-sm text-emerald-700"}>
          {notice.text}
        </p>
      ) : null}
    </header>
  );
}

/** Says that part of the count is an answer being written, estimated until it is stored. */
function LiveTokens({ tokens }: { tokens: number }) {
  return (
    <span data-testid="usage-live" className="ml-1 text-xs text-indigo-700" title="tokens of the answer being written, estimated until the call is stored">
      incl. ≈ {formatCount(tokens)} being written
    </span>
  );
}
