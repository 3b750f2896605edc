// The check of a root run's start (lib/engine/run-start-signature.ts), run by
// the worker before the run does anything. An activity because the key must
// never reach workflow code (it would be written into history); a local one,
// so a run's start costs no round trip through Temporal.
import type { AgentGraph } from "../../lib/agents/schemas";
import type { AgentRunInput, RunGate } from "../../lib/contract/workflow";
import { legacyRunStartProblem, runStartProblem } from "../../lib/engine/run-start-signature";

/**
 * What workflow code passes: the run's id and its input without `carried` (the fields an earlier release's
 * check read — graph, gate, startedBy, agentName, runProof — stay at the top level, so a worker of that
 * release taking this check during a deploy still reads them), and how the execution came to run.
 */
export type RunStartCheck = Omit<AgentRunInput, "carried"> & {
  /** Only on an execution that continues none (a closed run's follow-up): checked against the input's carriedProof. */
  carried?: AgentRunInput["carried"];
  runId: string;
  /** Marks this release's check (absent: one scheduled by earlier workflow code, see LegacyRunStartCheck). */
  wholeInput: true;
  /** The input carries state of an earlier execution (`carried`). */
  carriesState: boolean;
  /** Temporal records this execution as continued from another one. */
  continued: boolean;
};

/** The check as workflow code before issue 38 schedules it; judged by that release's rule (legacyRunStartProblem). */
export interface LegacyRunStartCheck {
  runId: string;
  graph: AgentGraph;
  gate?: RunGate;
  startedBy: string | null;
  agentName: string;
  runProof?: string;
  wholeInput?: undefined;
}

export function createRunStartActivities({ decisionKey = null }: { decisionKey?: Buffer | null }) {
  return {
    /** Why the run must not run (a one-line reason for its failure), or null when the web server signed its input. */
    async checkRunStart(check: RunStartCheck | LegacyRunStartCheck): Promise<string | null> {
      if (!check.wholeInput) {
        return legacyRunStartProblem(decisionKey, { runId: check.runId, graph: check.graph, gate: check.gate, startedBy: check.startedBy, agentName: check.agentName }, check.runProof);
      }
      const { runId, wholeInput: _marker, carriesState, continued, carried, ...input } = check;
      return runStartProblem(decisionKey, { runId, input, carriesState, continued, carried });
    },
  };
}

export type RunStartActivities = ReturnType<typeof createRunStartActivities>;
