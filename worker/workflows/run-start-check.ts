// A root run proves it was started by the web server before it does anything
// (issue 23 §2; the check is worker/activities/run-start.ts). A child run was
// started by a checked run — Temporal records its parent, which no client can
// set — so it needs no proof of its own.
import { proxyActivities, proxyLocalActivities, workflowInfo } from "@temporalio/workflow";
import type { RunStartActivities, RunStartCheck } from "../activities/run-start";
import type { AgentRunInput } from "../../lib/contract/workflow";
import { RunFailure } from "./run-failure";
import type { RunLedger } from "./run-ledger";

const { checkRunStart } = proxyLocalActivities<RunStartActivities>({ startToCloseTimeout: "10 seconds", retry: { maximumAttempts: 3 } });

// A taped run's check (EnginePatches.tapeStartCheckInHistory) and every execution's since steps-in-history: its result is an event of its own, at one
// place in the history, so a cancel that arrives while it runs meets the run at the same point on replay.
const { checkRunStart: checkRunStartInHistory } = proxyActivities<RunStartActivities>({ startToCloseTimeout: "10 seconds", retry: { maximumAttempts: 3 } });

/** `inHistory`: a regular activity (engine-patches.ts stepsInHistory, or a taped run's tapeStartCheckInHistory), else a local one in the ledger's turn. Throws RunFailure("unauthenticated") unless the run is a child or its input carries the web server's signature. */
export async function requireSignedStart(input: AgentRunInput, ledger: RunLedger, inHistory = false): Promise<void> {
  const info = workflowInfo();
  if (info.parent) return;
  // The whole input is checked (issue 38 §4), so the activity's argument grew; its commands did not change, and a
  // replay takes the recorded result without comparing arguments: no patch. `carried` is not signed (no web
  // server sees it): only its presence goes, to be refused on an execution that continues none.
  const { carried, ...rest } = input;
  const continued = info.continuedFromExecutionRunId !== undefined;
  // A closed run's follow-up (a new execution, not continued) sends its carried state to be checked against the web
  // server's carriedProof; a continue-as-new sends none (Temporal vouches for it), keeping the check's input small.
  const start: RunStartCheck = { ...rest, runId: info.workflowId, wholeInput: true, carriesState: carried !== undefined, continued, ...(carried !== undefined && !continued ? { carried } : {}) };
  const problem = inHistory ? await checkRunStartInHistory(start) : await ledger.exclusive(() => checkRunStart(start), { carry: false });
  if (problem) throw new RunFailure("unauthenticated", problem);
}
