// An approval-gated call of a taped run (a fork, an experiment) asks the tape
// before an approval opens: a call the tape recorded keeps its recorded outcome
// (a rejected call its recorded rejection), and with no recording the tape's
// policy decides — "approve"/"reject" automatically, never reaching the inbox,
// or "inbox" for a normal approval. Only runs with a tape reach this code
// (EnginePatches.tape), so no other run issues its activity.
import { proxyActivities, workflowInfo } from "@temporalio/workflow";
import type { AgentActivities } from "../activities/agent";
import type { ToolCall } from "../../lib/contract/types";
import type { RunTape } from "./engine-patches";
import type { CallOutcome } from "./sub-agents";

const { tapeGate: askTape } = proxyActivities<AgentActivities>({
  startToCloseTimeout: "30 seconds",
  retry: { initialInterval: "500 milliseconds", backoffCoefficient: 2, maximumInterval: "8 seconds", maximumAttempts: 6 },
});

/** `outcome`: the call is settled (recorded, or rejected by the policy); `approved`: it runs without an approval; neither: a normal approval. */
export async function tapeGate(tape: RunTape, call: ToolCall, iteration: number): Promise<{ outcome?: CallOutcome; approved?: boolean }> {
  const name = call.function.name;
  const answer = await askTape({ tape, runId: workflowInfo().workflowId, iteration, callId: call.id, tool: name, rawArguments: call.function.arguments });
  if (answer.kind === "recorded") {
    const { outcome } = answer;
    // A written result (a fork's edit) is not a recording and nobody approved it: marked as edited, not "recorded".
    const how = answer.edited ? { edited: answer.edited } : { replayed: true, approval: "recorded" as const };
    return { outcome: { ok: outcome.ok, content: outcome.content, ...(outcome.ok ? {} : { errorKind: outcome.errorKind }), attempts: 0, ...how } };
  }
  if (answer.kind === "auto") {
    if (answer.approved) return { approved: true };
    return { outcome: { ok: false, errorKind: "rejected", attempts: 0, content: `The call to ${name} was not approved (rejected): ${answer.reason}`, approval: "policy" } };
  }
  return {};
}
