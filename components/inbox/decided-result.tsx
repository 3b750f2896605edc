"use client";
// What was done after a decision, apart from what the model said before it
// asked: a run that read balances, then had a transfer approved, must not read
// as if nothing moved. The block reads the run's decided calls until the tool
// has answered (when the run's stream says its ledger moved, else polling every
// second), then shows its result.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { runDecisionsAction } from "@/lib/actions/run-decisions";
import { DateTime } from "@/components/ui/date-time";
import type { DecidedCall } from "@/lib/inbox/schemas";
import { Payload } from "@/components/runs/payload";

export const RUN_DECISIONS_QUERY_KEY = (runId: string) => ["inbox", "decisions", runId] as const;

const stillRunning = (decisions: DecidedCall[]) => decisions.some((d) => d.status === "approved" && d.result === null);

/** A run's decided calls; while `live`, polls every second as long as `waiting` says (default: an approved call has no result yet). */
export function useRunDecisions(runId: string, options: { live: boolean; version?: number; waiting?: (decisions: DecidedCall[]) => boolean; keepPrevious?: boolean }) {
  const waiting = options.waiting ?? stillRunning;
  return useQuery({
    queryKey: [...RUN_DECISIONS_QUERY_KEY(runId), options.version ?? 0],
    queryFn: async (): Promise<DecidedCall[]> => {
      const result = await runDecisionsAction({ runId });
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    refetchInterval: (q) => (options.live && waiting(q.state.data ?? []) ? 1_000 : false),
    // A new version (the ledger moved) keeps showing the last answer while it loads.
    ...(options.keepPrevious ? { placeholderData: keepPreviousData } : {}),
  });
}

const HEADINGS: Record<DecidedCall["status"], string> = {
  approved: "Result after approval",
  rejected: "Rejected: the tool did not run",
  expired: "Expired: the tool did not run",
};

/** The decided call's outcome: the tool's result after approval (what was done), or why nothing ran. */
export function DecidedResultBlock({ decision }: { decision: DecidedCall }) {
  const who = decision.decidedBy ? ` by ${decision.decidedBy}` : "";
  const decidedAt = decision.decidedAt;
  return (
    <section
      aria-label={HEADINGS[decision.status]}
      data-testid="result-after-decision"
      data-status={decision.status}
      className={decision.status === "approved" ? "space-y-1 rounded-md border-l-4 border-emerald-500 bg-emerald-50 p-2" : "space-y-1 rounded-md border-l-4 border-red-400 bg-red-50 p-2"}
    >
      <p className="text-[11px] font-semibold uppercase text-zinc-700">
        {HEADINGS[decision.status]}
        <span className="font-normal normal-case text-zinc-500">
          {" "}
          · {decision.status}
          {who}
          {decidedAt ? (
            <>
              {" at "}
              <DateTime value={decidedAt} />
            </>
          ) : null}
          {decision.editedArguments ? " · with edited arguments" : ""}
        </span>
      </p>
      {decision.result !== null ? <Payload text={decision.result} label={`${decision.toolName} result`} /> : decision.status === "approved" ? <p className="text-xs text-zinc-600">running {decision.toolName}…</p> : null}
    </section>
  );
}

/** What a page with the run's stream knows: the last ledger seq it announced, and whether the stream is connected (no polling then). */
export interface RunLiveSignal {
  seq: number;
  streaming: boolean;
}

/** One decided call, found by its approval id among the run's decisions. */
export function DecidedResult({ runId, approvalId, live }: { runId: string; approvalId: string; live?: RunLiveSignal }) {
  // With the run's stream, a ledger move reads the decisions again (version); polling is the fallback while it is down.
  const decisions = useRunDecisions(runId, {
    live: !live?.streaming,
    version: live?.seq,
    keepPrevious: true,
    waiting: (all) => {
      const mine = all.find((d) => d.approvalId === approvalId);
      return !mine || (mine.status === "approved" && mine.result === null);
    },
  });
  const decision = decisions.data?.find((d) => d.approvalId === approvalId);
  if (decisions.error) return <p className="text-xs text-red-700">{decisions.error.message}</p>;
  if (!decision) return <p className="text-xs text-zinc-500">recording the decision…</p>;
  return <DecidedResultBlock decision={decision} />;
}
