// What a run says about where its router sent the task. The ledger keeps the
// last attempt's choice (`routedTo`), which for a run that failed with
// routing_exhausted is an agent that did not finish the task: "Routed to:
// billing" there read as if billing had it. Such a run was routed to no agent
// that answered, and says so, with the agents it tried.
import type { RunListRow } from "./schemas";

type Routed = Pick<RunListRow, "routedTo"> & { error: { reason: string; details?: { attempts?: { agentName: string }[] } } | null };

/** The "Routed to" figure of a run, or null for a run that did not route. */
export function routedToText(run: Routed): string | null {
  if (run.error?.reason === "routing_exhausted") {
    const tried = run.error.details?.attempts?.map((a) => a.agentName) ?? (run.routedTo ? [run.routedTo] : []);
    return tried.length ? `no agent: routing exhausted (tried ${tried.join(", ")})` : "no agent: routing exhausted";
  }
  return run.routedTo;
}
