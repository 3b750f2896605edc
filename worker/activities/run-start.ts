// The check of a root run's start (lib/engine/run-start-signature.ts), run by
// the worker before the run does anything. An activity because the key must
// never reach workflow code (it would be written into history); a local one,
// so a run's start costs no round trip through Temporal.
import type { AgentGraph } from "../../lib/agents/schemas";
import type { RunGate } from "../../lib/contract/workflow";
import { runStartProblem } from "../../lib/engine/run-start-signature";

export interface RunStartCheck {
  runId: string;
  graph: AgentGraph;
  gate?: RunGate;
  startedBy: string | null;
  agentName: string;
  runProof?: string;
}

export function createRunStartActivities({ decisionKey = null }: { decisionKey?: Buffer | null }) {
  return {
    /** Why the run must not run (a one-line reason for its failure), or null when the web server signed its input. */
    async checkRunStart(input: RunStartCheck): Promise<string | null> {
      return runStartProblem(decisionKey, { runId: input.runId, graph: input.graph, gate: input.gate, startedBy: input.startedBy, agentName: input.agentName }, input.runProof);
    },
  };
}

export type RunStartActivities = ReturnType<typeof createRunStartActivities>;
