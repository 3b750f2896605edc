// The gate a child run (a sub-agent conversation, a routed child, a plan node)
// inherits: its parent's policy, every rule above it, and the people who count
// as "self" for its approvals — the starter, the author, and whoever sent the
// follow-ups that the runs above it are answering now (issue 23 §4), so a
// follow-up's sender cannot approve the calls it led to, however deep.
import type { ApprovalRule } from "../../lib/agents/schemas";
import type { AgentRunInput, PersonRef, RunGate } from "../../lib/contract/workflow";
import type { RunState } from "./run-state";
import { FALLBACK_POLICY } from "../../lib/policy/gate";

/** At most one per ancestor turn; deduplicated by id, so a tree of any depth carries each person once. */
export function sendersAbove(input: AgentRunInput, state: RunState): PersonRef[] {
  const people = [...(input.gate?.senders ?? []), ...(state.turnSender ? [state.turnSender] : [])];
  return people.filter((p, i) => people.findIndex((q) => q.id === p.id) === i);
}

export function childGate(input: AgentRunInput, state: RunState, callerRules: ApprovalRule[]): RunGate {
  const senders = sendersAbove(input, state);
  return {
    policy: input.gate?.policy ?? FALLBACK_POLICY,
    policyRevision: input.gate?.policyRevision ?? 0,
    inheritedRules: [...callerRules, ...(input.gate?.inheritedRules ?? [])],
    starter: input.gate?.starter ?? null,
    author: input.gate?.author ?? null,
    ...(senders.length ? { senders } : {}),
  };
}
